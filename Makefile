# semibench: `make reproduce` runs the main job, `make test` the tests,
# `make install` puts semibench on your PATH ($(go env GOPATH)/bin).
GO      ?= go
BIN     := bin/semibench
SCALE   ?= paper
BUDGET  ?= 25m
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@latest
GOIMPORTS   ?= golang.org/x/tools/cmd/goimports@v0.52.0

# SIMD=0 (the default) builds the plain-Go kernels. SIMD=1 builds with
# GOEXPERIMENT=simd on amd64: the AVX-512 and AVX2 kernels of
# impls/cpu/minplus and impls/cpu/kleene are compiled in, and each picks the
# widest one the CPU has at start-up. The SIMD build is not the default
# because Go 1.26's simd runtime restores the full vector registers after an
# asynchronous preemption without clearing their upper halves, and on Intel
# CPUs every legacy-SSE instruction Go emits afterwards (scalar floating
# point, memory moves, SHA-NI) pays the AVX-SSE transition penalty: code
# that runs no vector kernel at all gets slower (`make bench-builds`
# measures it; NOTES.md has the numbers).
SIMD    ?= 0
comma   := ,
GOARCH_HOST := $(shell $(GO) env GOARCH)
GOEXP_USER  := $(shell $(GO) env GOEXPERIMENT)
SIMD_EXP    := $(if $(filter simd,$(subst $(comma), ,$(GOEXP_USER))),$(GOEXP_USER),$(if $(GOEXP_USER),$(GOEXP_USER)$(comma))simd)
# The vector kernels' tests run in the SIMD build whatever SIMD is.
SIMD_TEST_ENV := $(if $(filter amd64,$(GOARCH_HOST)),GOEXPERIMENT=$(SIMD_EXP))
SIMD_ENV    := $(if $(and $(filter 1,$(SIMD)),$(filter amd64,$(GOARCH_HOST))),GOEXPERIMENT=$(SIMD_EXP))
# The packages with vector kernels, whose tests `make test` also runs in the
# SIMD build (with -short; `make test-simd` runs every test in it).
SIMD_PKGS := ./impls/cpu/minplus ./impls/cpu/kleene

# The commit, stamped two ways: the go command's own VCS stamp
# (-buildvcs=true), and -X bench.linkedCommit for where the go command finds
# no repository (a git worktree, whose .git is a file). Outside a git
# checkout of this module neither applies and the commit reads "unknown".
# What the harness itself writes (result files, reports and plots under
# results/ and plots/ that are not committed yet) does not make the build
# dirty; the linked stamp is the one the binary reports.
COMMIT  := $(shell test "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" && git rev-parse HEAD 2>/dev/null)
DIRTY   := $(if $(COMMIT),$(shell git status --porcelain 2>/dev/null | grep -v '^?? \(results\|plots\)/' | head -n 1))
BUILDFLAGS := $(if $(COMMIT),-buildvcs=true -ldflags=-X=github.com/semibench/semibench/bench.linkedCommit=$(COMMIT)$(if $(DIRTY),+dirty),-buildvcs=false)

.PHONY: build install test test-slurm test-simd test-gpu gpu-tests bench-builds reproduce reproduce-doc compare-doc quick lint ptx clean history

build:
	$(SIMD_ENV) $(GO) build $(BUILDFLAGS) -o $(BIN) ./cmd/semibench

# go install with the same settings: semibench lands in $(go env GOBIN), or
# $(go env GOPATH)/bin when GOBIN is unset; put that folder on your PATH.
install:
	$(SIMD_ENV) $(GO) install $(BUILDFLAGS) ./cmd/semibench
	@echo "installed $$(d=$$($(GO) env GOBIN); echo $${d:-$$($(GO) env GOPATH)/bin})/semibench"

test:
	$(GO) vet ./...
	$(GO) test ./...
ifneq ($(SIMD_TEST_ENV),)
	$(SIMD_TEST_ENV) $(GO) vet $(SIMD_PKGS)
	$(SIMD_TEST_ENV) $(GO) test -short $(SIMD_PKGS)
endif

# README's Slurm example (3 shards of a quick-scale reproduce and the job
# that merges them) on a one-node Slurm started on this machine, against an
# unsharded run; installs Debian's slurm-wlm and munge when missing (root,
# apt-get) and leaves no daemon running. A few minutes.
test-slurm: build
	bash scripts/test-slurm.sh

# Every test and vet check in the SIMD build (amd64).
test-simd:
ifeq ($(filter amd64,$(GOARCH_HOST)),)
	@echo "test-simd: no vector kernels on $(GOARCH_HOST); make test covers this build"
else
	GOEXPERIMENT=$(SIMD_EXP) $(GO) vet ./...
	GOEXPERIMENT=$(SIMD_EXP) $(GO) test ./...
endif

# The plain and the SIMD build side by side on a cell that runs no vector
# kernel (experiments' BenchmarkNoVectorCell): equal times, or the SIMD
# build slows plain Go code on this CPU.
bench-builds:
	$(GO) test -run '^$$' -bench NoVectorCell -count 6 ./experiments/ | tee $${TMPDIR:-/tmp}/semibench-plain.txt
ifneq ($(SIMD_TEST_ENV),)
	$(SIMD_TEST_ENV) $(GO) test -run '^$$' -bench NoVectorCell -count 6 ./experiments/ | tee $${TMPDIR:-/tmp}/semibench-simd.txt
endif

# Every table and figure at the papers' sizes on this machine (CPU, and GPU
# when a driver and GPU are present): result file, Markdown report, plots.
reproduce: build
	./$(BIN) reproduce --scale $(SCALE) --budget $(BUDGET)

# REPRODUCE.md's verdict tables, generated from the runs results/CURRENT names,
# judged with the history of each machine kind in results/HISTORY.json.gz
# (make history) when it is there.
reproduce-doc:
	$(GO) run ./cmd/semibench claims --current results/CURRENT --into REPRODUCE.md

# results/compare/: the H100-H200 compare of the runs results/CURRENT names
# (--across-commits: where they ran different commits the preface names
# what changed, and the ratios keep those cells), its figures, and two
# 2-core CPUs side by side (an Intel Xeon run that git history keeps, the
# current AMD EPYC run): host side only, as neither has a GPU. PEERS_H100
# and PEERS_H200: the published codes' records of each GPU and the
# cuda/fast file measured beside them (results/peers/README.md), added to
# that GPU's run (--with) for the summary's rows of published codes; a
# cuda/fast file joins only a run of its own commit.
CURRENT_RUN = $$(awk '$$1=="$(1)" {print "results/" $$2}' results/CURRENT)
XEON_2CORE ?= 96a9e4b:results/intel-xeon/20261127-014424.jsonl.gz
PEERS_H100 ?= results/peers/intel-xeon_nvidia-h100-80gb-hbm3/20261207-hylac-62157c4.jsonl \
	results/peers/intel-xeon_nvidia-h100-80gb-hbm3/20261207-hungariangpu-plain-62157c4.jsonl \
	results/intel-xeon_nvidia-h100-80gb-hbm3/20261207-peers-table1-fast-62157c4.jsonl.gz
PEERS_H200 ?= results/peers/intel-xeon_nvidia-h200/20261207-hylac-9b86b0f.jsonl \
	results/peers/intel-xeon_nvidia-h200/20261207-hungariangpu-plain-9b86b0f.jsonl \
	results/intel-xeon_nvidia-h200/20261207-hungarian-table1-fast-9b86b0f.jsonl.gz
compare-doc: build
	rm -rf results/compare/h100-h200.figures
	./$(BIN) compare $(call CURRENT_RUN,H100) $(call CURRENT_RUN,H200) --across-commits \
		$(foreach f,$(PEERS_H100) $(PEERS_H200),--with $(f)) \
		--format markdown --plots results/compare/h100-h200.figures > results/compare/h100-h200.md
	./$(BIN) compare $(XEON_2CORE) $(call CURRENT_RUN,2-core) --format markdown > results/compare/2core-xeon-epyc.md

# The history of every run the repository holds (results/ and its whole git
# history: not a shallow clone). results/HISTORY.md shows, for each machine
# of results/CURRENT, each paper's headline cells over the commits with the
# steps found, a plot per paper (results/HISTORY.plots/) and the claims'
# figures over the machine's runs; results/HISTORY.json.gz holds each
# machine kind's claim figures, which make reproduce-doc judges REPRODUCE.md
# with. After committing new runs: make history, then make reproduce-doc.
# No test holds HISTORY.md current, as one holds REPRODUCE.md: writing it
# reads every committed version of results/ and judges every run's claims
# (minutes the first time, seconds from the cache after), which make test
# cannot afford, and a shallow CI clone lacks that history; HISTORY.json.gz
# is what REPRODUCE.md's test reads, so that test needs no git.
history:
	$(GO) run ./cmd/semibench history --page results/HISTORY.md
	$(GO) run ./cmd/semibench history --digest results/HISTORY.json.gz --claims-only

# The same pipeline at quick scale, into a scratch folder: a smoke test.
quick: build
	rm -rf $${TMPDIR:-/tmp}/semibench-quick  # a scratch run: result files are appended to, never replaced
	./$(BIN) reproduce --scale quick --budget 0 --out $${TMPDIR:-/tmp}/semibench-quick/run.jsonl --plots $${TMPDIR:-/tmp}/semibench-quick/plots

lint:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	@out=$$($(GO) run $(GOIMPORTS) -l .) && test -z "$$out" || { echo "$$out"; echo "goimports: files above need their imports grouped (go run $(GOIMPORTS) -w FILE)"; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Regenerate the fallback PTX (kernels/ptx) with NVRTC, stamped by source hash.
ptx:
	$(GO) run ./cmd/semibench kernels export

# The GPU tests. `make gpu-tests` compiles the test binary of every package
# with GPU code (impls/cuda/..., kernels, and impls, whose case tables run
# against every implementation) into bin/gputest/, with no GPU needed;
# scripts/test-gpu.sh runs them, each in its package's folder, and
# needs a GPU and its driver but no Go. `make test-gpu` does both on a
# machine that has Go and a GPU. A test binary without a GPU skips its GPU
# tests, so a run here passes and proves nothing: the script refuses to
# run where no NVIDIA driver is loaded.
GPU_PKGS := $(shell $(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./impls ./impls/cuda/... ./kernels 2>/dev/null)
MODULE   := $(shell $(GO) list -m 2>/dev/null)

gpu-tests:
	@mkdir -p bin/gputest
	@for p in $(GPU_PKGS); do \
		rel=$${p#$(MODULE)/}; \
		CGO_ENABLED=0 $(GO) test -c -ldflags='-s -w' -o bin/gputest/$$(echo $$rel | tr / _).test ./$$rel || exit 1; \
	done
	@ls bin/gputest

test-gpu: gpu-tests
	bash scripts/test-gpu.sh bin/gputest

clean:
	rm -rf bin
