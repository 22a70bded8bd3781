# Thin front door (as DuckDB does): installs missing Debian packages, configures, builds, runs.
#   make run    build, then run the main job
#   make test   build, then run every test through ctest

BUILD     ?= build
BUILDTYPE ?= Release
JOBS      ?= $(shell nproc)
PACKAGES  := cmake g++ make ninja-build antlr4 libantlr4-runtime-dev libdnnl-dev libcli11-dev \
             libedit-dev libfmt-dev libsleef-dev libopenblas-openmp-dev nlohmann-json3-dev zlib1g-dev libpcre2-dev \
             libgtest-dev \
             dataset-fashion-mnist python3
STAMP     := $(BUILD)/.packages-ok

.PHONY: run test bench build configure clean

# The main job (ARGS are passed to the script).
MAIN ?= examples/fashion_mnist_amp.amps
run: build
	./$(BUILD)/amps $(MAIN) $(ARGS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Side-by-side benchmarks against Debian's PyTorch (installed here, with OpenBLAS's OpenMP build).
BENCH_PACKAGES := python3-torch libopenblas0-openmp
bench: build
	@missing=""; for p in $(BENCH_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi
	/usr/bin/python3 bench/run_bench.py --build $(BUILD)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

configure: $(BUILD)/build.ninja

$(BUILD)/build.ninja: $(STAMP)
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILDTYPE)

# Installs only what is missing; re-checked when this Makefile changes.
$(STAMP): Makefile
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "need root to install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@mkdir -p $(BUILD) && touch $@

clean:
	rm -rf $(BUILD)
