package main

import "github.com/semibench/semibench/experiments/papers"

// The papers' experiments, registered before any command runs.
func init() { papers.Register() }
