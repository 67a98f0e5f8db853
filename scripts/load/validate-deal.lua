-- wrk script: POST a complete deal record to /api/v1/validate/deal and count
-- answers that are not 200 (a load test that only measures errors is no test).
local f = assert(io.open(os.getenv("DEAL_FILE") or "scripts/load/deal.json", "r"))
local deal = f:read("*a")
f:close()

wrk.method = "POST"
wrk.path = "/api/v1/validate/deal"
wrk.body = deal
wrk.headers["Content-Type"] = "application/json"

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bad = 0
  invalid = 0
end

function response(status, headers, body)
  if status ~= 200 then
    bad = bad + 1
  elseif not string.find(body, '"valid":true', 1, true) then
    invalid = invalid + 1
  end
end

function done(summary, latency, requests)
  local b, i = 0, 0
  for _, t in ipairs(threads) do
    b = b + t:get("bad")
    i = i + t:get("invalid")
  end
  io.write(string.format("non-200 answers: %d, 200 answers not valid: %d\n", b, i))
  io.write(string.format("requests/s: %.0f\n", summary.requests / (summary.duration / 1e6)))
  io.write(string.format("latency p50 %.2f ms, p99 %.2f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
