# perf --off-cpu: Debian's linux-source-7.3 + patches/ -> build/bin/perf
#
#   make          install build deps, prepare build/src, build build/bin/perf
#   make demo     off-CPU profile of workloads/offcpu-demo
#   make flamegraph  its off-CPU flame graph: build/demo/offcpu.html
#   make check    build, then run the tests; ends with "N passed, N failed"
#   make check-kernels  the off-CPU tests on Debian's kernels (KERNELS, default
#                 6.1 6.12 7.3), each booted under qemu: build/kernels/VER/
#   make export   write build/src's postings (branches NN-topic) to patches/
#   make postings AUTHOR="Name <email>"  them as that person mails them, signed
#                 off by them, with recipients and base: build/postings/NN-topic/
#                 (for git send-email) and NN-topic.mbox (REROLL=N: [PATCH vN],
#                 default 2; POSTINGS=DIR elsewhere)
#   make refresh  recreate build/src from patches/ (refuses to drop unexported work)
#   make upstream build the unpatched perf 7.3 into build/upstream/bin/perf
#   make bisect   build the series patch by patch on a scratch copy
#   make bench    BPF cost per switch, side by side with perf 7.3: build/bench/cost.md
#   make fuzz     fuzz the off-cpu raw data readers (FUZZ_SECONDS, default 300)
#   make install  install the patched perf and its man pages under PREFIX
#                 (default /usr/local)
#   make deb      a Debian package of it, for /usr: build/deb/perf-offcpu_*.deb
#   make check-deb  install that package in a fresh Debian 12 chroot and record

PREFIX ?= /usr/local
TOP := $(CURDIR)
JOBS ?= $(shell nproc)

# Same options everywhere: BPF skeletons on, Debian's python, no Rust (the
# rustc on PATH breaks perf 7.3's build: "LLVM ERROR: Invalid encoding").
PERF_OPTS = BUILD_BPF_SKEL=1 PYTHON=/usr/bin/python3 PYTHON_CONFIG=/usr/bin/python3-config NO_RUST=1
# ccache (Debian's) where it is installed, with paths taken relative to the
# project: rebuilds, bisects and builds in other clones go faster
CCACHE_PATH = $(if $(wildcard /usr/lib/ccache/gcc),PATH=/usr/lib/ccache:$$PATH CCACHE_BASEDIR=$(TOP) CCACHE_NOHASHDIR=1)

# $(call build-perf,srcdir,objdir,prefix[,options])
define build-perf
	@mkdir -p $(2)
	@$(CCACHE_PATH) $(MAKE) -s -C $(1)/tools/perf O=$(2) prefix=$(3) $(or $(4),$(PERF_OPTS)) -j$(JOBS) install-bin >$(2).log 2>&1 || \
		{ grep -E -B2 -A8 'error|Error' $(2).log | head -60; echo "build failed, see $(2).log"; exit 1; }
endef

# $(call install-man,objdir,prefix[,destdir]): the manual, that perf help shows
# (asciidoc is a python3 script: Debian's python, not the one on PATH)
define install-man
	@PATH=/usr/bin:$$PATH $(MAKE) -s -C $(TOP)/build/src/tools/perf O=$(1) prefix=$(2) \
		$(PERF_OPTS) $(if $(3),DESTDIR=$(3)) install-man >$(1)-man.log 2>&1 || \
		{ tail -20 $(1)-man.log; echo "man pages failed, see $(1)-man.log"; exit 1; }
endef

.PHONY: all deps src perf flamegraph-template flamegraph bench fuzz refresh export postings \
	upstream bisect check check-kernels demo install deb check-deb clean

all: perf flamegraph-template

deps:
	@scripts/deps.sh

src: deps
	@scripts/prepare-src.sh

perf: src
	$(call build-perf,$(TOP)/build/src,$(TOP)/build/obj,$(TOP)/build/install)
	$(call install-man,$(TOP)/build/obj,$(TOP)/build/install)
	@mkdir -p build/bin && ln -sf ../install/bin/perf build/bin/perf
	@scripts/export.sh --check >/dev/null || echo "note: build/src has work not exported to patches/ ('make export')"
	@echo "built build/bin/perf ($$(build/bin/perf version))"

refresh: deps
	@scripts/prepare-src.sh refresh

export:
	@scripts/export.sh

# the postings as a person sends them (scripts/postings.sh); git send-email
postings: src
	@[ -n "$(AUTHOR)" ] || { echo 'usage: make postings AUTHOR="Name <email>" (who sends them and signs them off)' >&2; exit 1; }
	@scripts/deps.sh git-email libmailtools-perl
	@REROLL="$(REROLL)" scripts/postings.sh "$(AUTHOR)" $(or $(POSTINGS),build/postings)

# the unpatched perf of the base, to compare with and exchange files with
upstream: src
	@[ -d build/upstream/src ] || { mkdir -p build/upstream/src && git -C build/src archive base | tar -x -C build/upstream/src; }
	$(call build-perf,$(TOP)/build/upstream/src,$(TOP)/build/upstream/obj,$(TOP)/build/upstream/install)
	@mkdir -p build/upstream/bin && ln -sf ../install/bin/perf build/upstream/bin/perf
	@echo "built build/upstream/bin/perf ($$(build/upstream/bin/perf version), unpatched)"

bisect: src
	@PERF_OPTS="$(PERF_OPTS)" scripts/bisect.sh

# the HTML template perf's flamegraph script looks for (d3-flame-graph, npm)
flamegraph-template:
	@scripts/flamegraph-template.sh

check: all upstream
	@scripts/check.sh

check-kernels: all
	@scripts/deps.sh qemu-system-x86 busybox-static cpio kmod e2fsprogs
	@make -s -C workloads OUT="$(TOP)/build/workloads"
	@scripts/kernels.sh $(KERNELS)

demo: perf
	@scripts/demo.sh

flamegraph: all
	@scripts/flamegraph-demo.sh

# fuzz the off-cpu raw data readers (make check runs it for 20 s)
fuzz: src
	@scripts/fuzz.sh $(or $(FUZZ_SECONDS),300)

# the peers to compare with: perf 7.3 and libbpf-tools
bench: all upstream
	@scripts/deps.sh libbpf-tools bpftool
	@bench/cost.sh

install: src
	$(call build-perf,$(TOP)/build/src,$(TOP)/build/obj-install,$(PREFIX))
	$(call install-man,$(TOP)/build/obj-install,$(PREFIX))
	@echo "installed $(PREFIX)/bin/perf and its manual in $(PREFIX)/share/man"

# the package is built for prefix /usr (perf finds its scripts and manual by
# the prefix compiled in), in its own objdir, and staged with DESTDIR
DEB_STAGE = $(TOP)/build/deb/stage
deb: src
	@scripts/deps.sh dpkg-dev file
	@rm -rf $(DEB_STAGE)
	$(call build-perf,$(TOP)/build/src,$(TOP)/build/obj-deb,/usr,$(PERF_OPTS) DESTDIR=$(DEB_STAGE))
	$(call install-man,$(TOP)/build/obj-deb,/usr,$(DEB_STAGE))
	@scripts/deb.sh $(DEB_STAGE)

check-deb:
	@tests/deb.sh

clean:
	rm -rf build/obj build/install build/bin build/bisect build/workloads build/upstream \
		build/obj-deb build/deb build/deb-test
