// This package is a Go client of Revisor's HTTP API, generated from the
// OpenAPI document (api/openapi.json) by oapi-codegen, whose version go.mod
// pins as a tool. It is kept in the repository: regenerate it with
//
//	go generate ./api/client
//
// after changing the document. TestClientUpToDate fails when client.gen.go
// is not what the generator makes of the document, and cmd/revisor's
// TestGeneratedClientEndToEnd runs a tournament with it against the real
// server, so a break of the contract fails the build.

package client

//go:generate go tool oapi-codegen -config oapi-codegen.yaml -o client.gen.go ../openapi.json
