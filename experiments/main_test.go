package experiments_test

import (
	"os"
	"testing"

	"github.com/semibench/semibench/experiments/papers"
)

// TestMain registers every paper, as cmd/semibench does: the external
// tests judge them together (the catalogue, the report, the golden tables).
func TestMain(m *testing.M) {
	papers.Register()
	os.Exit(m.Run())
}
