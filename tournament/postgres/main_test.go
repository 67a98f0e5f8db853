package postgres_test

import (
	"os"
	"testing"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

// TestMain drops the tests' databases together (dbtest.Main).
func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }
