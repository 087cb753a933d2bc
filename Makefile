# semibench: `make reproduce` runs the main job, `make test` the tests.
GO      ?= go
BIN     := bin/semibench
SCALE   ?= paper
BUDGET  ?= 25m
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@latest

.PHONY: build test reproduce quick lint ptx clean

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/semibench

test:
	$(GO) vet ./...
	$(GO) test ./...

# Every table and figure at the papers' sizes on this machine (CPU, and GPU
# when a driver and GPU are present): result file, Markdown report, plots.
reproduce: build
	./$(BIN) reproduce --scale $(SCALE) --budget $(BUDGET)

# The same pipeline at quick scale, into a scratch folder: a smoke test.
quick: build
	./$(BIN) reproduce --scale quick --budget 0 --out $${TMPDIR:-/tmp}/semibench-quick/run.json --plots $${TMPDIR:-/tmp}/semibench-quick/plots

lint:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Regenerate the fallback PTX (kernels/ptx) with NVRTC, stamped by source hash.
ptx:
	$(GO) run ./cmd/semibench kernels export

clean:
	rm -rf bin
