package treefix

import (
	"os"
	"testing"
)

// TestMain registers the paper's experiments, as cmd/semibench does.
func TestMain(m *testing.M) {
	Register()
	os.Exit(m.Run())
}
