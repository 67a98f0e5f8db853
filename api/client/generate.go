// This package is a Go client of Revisor's HTTP API, generated from the
// OpenAPI document (api/openapi.json) by oapi-codegen, whose version its go.mod
// pins as a tool. It is a module of its own (api/client/go.mod), so that
// neither the 21,000 generated lines nor the generator's dependencies are
// part of the product's module; scripts/test.sh runs its tests. It is kept
// in the repository: regenerate it with
//
//	(cd api/client && go generate)
//
// after changing the document. TestClientUpToDate fails when client.gen.go
// is not what the generator makes of the document, and
// TestGeneratedClientEndToEnd runs a tournament with it against the real
// server (cmd/revisor, built from the product's module), so a break of the
// contract fails the build.

package client

//go:generate go tool oapi-codegen -config oapi-codegen.yaml -o client.gen.go ../openapi.json
