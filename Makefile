# perf --off-cpu: Debian's linux-source-6.12 + patches/ -> build/bin/perf
#
#   make          install build deps, prepare build/src, build build/bin/perf
#   make demo     off-CPU profile of workloads/offcpu-demo
#   make flamegraph  its off-CPU flame graph: build/demo/offcpu.html
#   make check    build, then run the tests; ends with "N passed, N failed"
#   make export   write build/src's commits since 'base' to patches/
#   make refresh  recreate build/src from patches/ (refuses to drop unexported work)
#   make base     build the unpatched perf into build/base/bin/perf
#   make bisect   build the series patch by patch on a scratch copy
#   make bench    off-CPU profilers side by side: bench/RESULTS.md
#   make fuzz     fuzz the off-cpu payload parser (FUZZ_SECONDS, default 300)
#   make install  install the patched perf under PREFIX (default /usr/local)
#
# The series on perf 7.3 (patches-7.3/), built beside the 6.12 one until it
# has every feature:
#   make perf-7.3      build/7.3/bin/perf: Debian's linux-source-7.3 + patches-7.3/
#   make upstream      build/upstream/bin/perf: perf 7.3 unpatched
#   make check-7.3     its tests; ends with "N passed, N failed"
#   make export-7.3    write build/7.3/src's commits to patches-7.3/
#   make bisect-7.3    build patches-7.3/ patch by patch

PREFIX ?= /usr/local
TOP := $(CURDIR)
JOBS ?= $(shell nproc)

# Same options everywhere: BPF skeletons on, Debian's python.
PERF_OPTS = BUILD_BPF_SKEL=1 PYTHON=/usr/bin/python3 PYTHON_CONFIG=/usr/bin/python3-config

# perf 7.3: the rustc on PATH breaks its build ("LLVM ERROR: Invalid encoding")
PERF_OPTS_73 = $(PERF_OPTS) NO_RUST=1
# ccache (Debian's) where it is installed, with paths taken relative to the
# project: rebuilds, bisects and builds in other clones go faster
CCACHE_PATH = $(if $(wildcard /usr/lib/ccache/gcc),PATH=/usr/lib/ccache:$$PATH CCACHE_BASEDIR=$(TOP) CCACHE_NOHASHDIR=1)

# $(call build-perf,srcdir,objdir,prefix[,options])
define build-perf
	@mkdir -p $(2)
	@$(CCACHE_PATH) $(MAKE) -s -C $(1)/tools/perf O=$(2) prefix=$(3) $(or $(4),$(PERF_OPTS)) -j$(JOBS) install-bin >$(2).log 2>&1 || \
		{ grep -E -B2 -A8 'error|Error' $(2).log | head -60; echo "build failed, see $(2).log"; exit 1; }
endef

.PHONY: all deps src perf flamegraph-template flamegraph bench fuzz refresh export \
	base bisect check demo install clean src-7.3 perf-7.3 upstream check-7.3 export-7.3 bisect-7.3

all: perf flamegraph-template

deps:
	@scripts/deps.sh

src: deps
	@scripts/prepare-src.sh

perf: src
	$(call build-perf,$(TOP)/build/src,$(TOP)/build/obj,$(TOP)/build/install)
	@mkdir -p build/bin && ln -sf ../install/bin/perf build/bin/perf
	@scripts/export.sh --check >/dev/null || echo "note: build/src has work not exported to patches/ ('make export')"
	@echo "built build/bin/perf ($$(build/bin/perf version))"

refresh: deps
	@scripts/prepare-src.sh refresh

export:
	@scripts/export.sh

base: src
	@[ -d build/base/src ] || { mkdir -p build/base/src && git -C build/src archive base | tar -x -C build/base/src; }
	$(call build-perf,$(TOP)/build/base/src,$(TOP)/build/base/obj,$(TOP)/build/base/install)
	@mkdir -p build/base/bin && ln -sf ../install/bin/perf build/base/bin/perf
	@echo "built build/base/bin/perf (unpatched)"

bisect: src
	@PERF_OPTS="$(PERF_OPTS)" scripts/bisect.sh

# the HTML template perf's flamegraph script looks for (d3-flame-graph, npm)
flamegraph-template:
	@scripts/flamegraph-template.sh

check: all
	@scripts/check.sh

demo: perf
	@scripts/demo.sh

flamegraph: all
	@scripts/flamegraph-demo.sh

# fuzz the off-cpu payload parser (make check runs it for 20 s)
fuzz: src
	@scripts/fuzz.sh $(or $(FUZZ_SECONDS),300)

# peers to compare with, and gnuplot for the chart
bench: all base
	@scripts/deps.sh libbpf-tools bpfcc-tools bpftool gnuplot-nox libbpf-dev
	@bench/run.sh

install: src
	$(call build-perf,$(TOP)/build/src,$(TOP)/build/obj-install,$(PREFIX))
	@echo "installed $(PREFIX)/bin/perf"

src-7.3: deps
	@VER=7.3 scripts/prepare-src.sh

perf-7.3: src-7.3
	$(call build-perf,$(TOP)/build/7.3/src,$(TOP)/build/7.3/obj,$(TOP)/build/7.3/install,$(PERF_OPTS_73))
	@mkdir -p build/7.3/bin && ln -sf ../install/bin/perf build/7.3/bin/perf
	@VER=7.3 scripts/export.sh --check >/dev/null || echo "note: build/7.3/src has work not exported to patches-7.3/ ('make export-7.3')"
	@echo "built build/7.3/bin/perf ($$(build/7.3/bin/perf version))"

# the unpatched perf of the base, to compare with and exchange files with
upstream: src-7.3
	@[ -d build/upstream/src ] || { mkdir -p build/upstream/src && git -C build/7.3/src archive base | tar -x -C build/upstream/src; }
	$(call build-perf,$(TOP)/build/upstream/src,$(TOP)/build/upstream/obj,$(TOP)/build/upstream/install,$(PERF_OPTS_73))
	@mkdir -p build/upstream/bin && ln -sf ../install/bin/perf build/upstream/bin/perf
	@echo "built build/upstream/bin/perf ($$(build/upstream/bin/perf version), unpatched)"

export-7.3:
	@VER=7.3 scripts/export.sh

bisect-7.3: src-7.3
	@VER=7.3 PERF_OPTS="$(PERF_OPTS_73)" scripts/bisect.sh

check-7.3: perf-7.3 upstream
	@scripts/check-7.3.sh

clean:
	rm -rf build/obj build/install build/bin build/base build/bisect build/workloads build/7.3 build/upstream
