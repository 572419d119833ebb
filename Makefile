# ubsim - cycle-level model of a Unified Bus (UB) / URMA endpoint.
#
#   make deps      install the Debian packages the project needs (idempotent)
#   make run       build ubsim and print the 64 B read latency breakdown
#   make test      build everything and run the GoogleTest suite
#   make test-asan the test suite built with AddressSanitizer + UBSan
#   make test-tsan the simulations run side by side (--jobs) under ThreadSanitizer
#   make lint      Verilator -Wall and Icarus lint, yosys synthesis of every RTL block
#   make timing    every RTL block at full size synthesised for UltraScale+: its worst
#                  register-to-register path and an estimated period (docs/rtl.md)
#   make formal    prove every block's assertions (yosys-smtbmc, ABC pdr and bmc3) and check that
#                  a planted bug in each is caught (docs/formal.md)
#   make cmodel-alone  build the C models with nothing but cmodel/ and run them
#   make bench     simulation speed figures
#   make fuzz      fuzz the receive-side parsers, the waveform reader and the config
#                  and topology parsers (FUZZ_RUNS each, default 10^7)
#   make mutate    plant each mutation of scripts/mutate.py and check the tests catch it
#   make plots     draw every experiment into docs/img/ (docs/results.md)
#   make example   build and run the example workload of docs/verbs.md
#   make systemc   the SystemC models of the blocks and the endpoint, their tests and example
#   make replay-tb the replay testbench of every block (build/replay/; ubsim
#                  --vectors, scripts/replay.py, docs/vectors.md)
#   make waves     every waveform dump a save file in waves/ opens (wave-shots: the screenshots)
#   make clean
#
# Everything is built under $(BUILD) (default build/); the sanitizer builds
# live in build/asan and build/tsan so they can coexist.

SHELL     := /bin/bash
BUILD     ?= build
CC        := gcc
CXX       := g++
VERILATOR ?= verilator
SAN       ?= 0

DEB_PKGS := build-essential pkg-config verilator yosys iverilog gtkwave xvfb \
            libgtest-dev libinih-dev libcjson-dev zlib1g-dev imagemagick \
            clang-14 libclang-rt-14-dev libfuzzer-14-dev python3-matplotlib libsystemc-dev \
            valgrind z3 cvc4

ifeq ($(SAN),thread)
  # ThreadSanitizer: the simulations a command runs side by side (--jobs)
  OPT      := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
  COPT     := $(OPT)
  LDSAN    := -fsanitize=thread
  VLRT_OPT := $(OPT)
else ifeq ($(SAN),1)
  OPT      := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  COPT     := $(OPT)
  LDSAN    := -fsanitize=address,undefined
  # Verilator's runtime (and the FST writer inside it) is third-party code with
  # known unaligned accesses: address-checked only.
  VLRT_OPT := -O1 -g -fsanitize=address -fno-omit-frame-pointer
else
  VLRT_OPT := -O2 -g
  OPT      := -O2 -g
  # the C models and the simulator's core: -O3 (about 10% less time than
  # -O2 for the read scenarios; no floating-point reassociation, so the
  # same figures)
  COPT     := -O3 -g
  LDSAN    :=
endif

# The simulator's C code (and the C++ of the blocks' Verilated models and
# their shims) is built twice: first instrumented (build/pgo/), run
# on a short training set of the scenarios below, then again with what that
# run counted (-fprofile-use) and link-time optimisation for ubsim. Branches
# and code layout follow the measured paths; the arithmetic is the same (no
# floating-point reassociation: the golden outputs hold). About a quarter
# less time for the read scenarios. PGO=0 builds once, without either (the
# sanitizer build never uses them).
PGO ?= 1
ifneq ($(SAN),0)
  override PGO := 0
endif
PGO_DIR   := $(abspath $(BUILD))/pgo
PGO_STAMP := $(PGO_DIR)/profile.ok
ifeq ($(PGO),1)
  LTO      := -flto=auto -ffat-lto-objects
  # (-dumpbase: a file's profile, and a static function's identity in it,
  # are named after the source, not after the object, so the two builds meet)
  PGO_USE   = -fprofile-use=$(PGO_DIR)/data -dumpbase $< -fprofile-partial-training \
              -Wno-missing-profile $(LTO)
  PGO_DEP  := $(PGO_STAMP)
  LTO_LINK := -flto=auto -O3
endif

VL_ROOT   = $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VL_INC    = $(VL_ROOT)/include
PKG_CFLAGS = $(shell pkg-config --cflags inih libcjson 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs inih libcjson 2>/dev/null) -lz -pthread
SC_CFLAGS  = $(shell pkg-config --cflags systemc 2>/dev/null)
SC_LIBS    = $(shell pkg-config --libs systemc 2>/dev/null)

CONFIG_DIR := $(CURDIR)/configs
SIM_DIRS  := sim/core sim/rtl sim/net sim/node sim/verbs sim/workload sim/app sim/systemc
CPPFLAGS  := -Icmodel $(addprefix -I,$(SIM_DIRS)) -DUBSIM_SOURCE_DIR='"$(CURDIR)"' -DUBSIM_CONFIG_DIR='"$(CONFIG_DIR)"'
CFLAGS    := -std=c11 -D_POSIX_C_SOURCE=200809L $(COPT) -Wall -Wextra -Werror
CXXFLAGS  := -std=gnu++17 $(OPT) -Wall -Wextra -Werror

# --- sources ---------------------------------------------------------------
CMODEL_SRCS := $(wildcard cmodel/*.c)
C_SRCS    := $(CMODEL_SRCS) $(filter-out sim/app/main.c,$(foreach d,$(SIM_DIRS),$(wildcard $(d)/*.c)))
SHIM_SRCS := $(wildcard sim/rtl/*_rtl.cc)
SC_SRCS   := $(wildcard sim/systemc/*.cc)
RTL_TOPS  := $(patsubst sim/rtl/%_rtl.cc,%,$(SHIM_SRCS))
RTL_PKG   := rtl/ub_pkg.sv
RTL_SRCS  := $(wildcard rtl/*.sv) $(wildcard rtl/*.svh)
TEST_SRCS := $(wildcard testbench/*.cc)
# Test-only blocks: testbench/rtl/<block>.sv, C model testbench/<block>_model.c,
# port list testbench/<block>_ports.h, shim testbench/<block>_rtl.cc.
TB_BLOCKS := $(patsubst testbench/rtl/%.sv,%,$(wildcard testbench/rtl/*.sv))
TB_C_OBJS := $(patsubst %,$(BUILD)/obj/testbench/%_model.o,$(TB_BLOCKS))
TB_VL_LIBS := $(patsubst %,$(BUILD)/vlc/lib%.a,$(TB_BLOCKS))

C_OBJS    := $(patsubst %.c,$(BUILD)/obj/%.o,$(C_SRCS))
SHIM_OBJS := $(patsubst %.cc,$(BUILD)/obj/%.o,$(SHIM_SRCS))
SC_OBJS   := $(patsubst %.cc,$(BUILD)/obj/%.o,$(SC_SRCS))
TEST_OBJS := $(patsubst %.cc,$(BUILD)/obj/%.o,$(TEST_SRCS))
# Every block twice (docs/rtl.md, "Speed of one clock edge"): traced, for
# runs that write waveforms (build/vl/, V<block>), and untraced, for every
# other run (build/vlf/, V<block>_f: no trace code in its evaluation); the
# shim picks one when the instance is made.
VL_LIBS   := $(patsubst %,$(BUILD)/vl/lib%.a,$(RTL_TOPS)) $(patsubst %,$(BUILD)/vlf/lib%_f.a,$(RTL_TOPS))
VL_RT     := $(BUILD)/vl/libverilated.a
LIB       := $(BUILD)/libubsim.a
UBSIM     := $(BUILD)/ubsim
# The checked flavour (docs/rtl.md, "Assertions"): every block Verilated with
# its assertions and the logic only they read (--assert, UB_ASSERTS), its
# shims compiled against those models, and the programs the tests run linked
# with them. ubsim and the programs built for speed use the models without.
VLC_LIBS  := $(patsubst %,$(BUILD)/vlc/lib%.a,$(RTL_TOPS))
SHIMC_OBJS := $(patsubst %.cc,$(BUILD)/objc/%.o,$(SHIM_SRCS))
LIBC      := $(BUILD)/libubsim_checked.a
UBSIMC    := $(BUILD)/ubsim-checked
TESTS     := $(BUILD)/ubsim_tests
CMODEL_ALONE := $(BUILD)/cmodel_alone
EXAMPLE   := $(BUILD)/verbs_example

LINK_LIBS  = $(LIB) $(VL_LIBS) $(VL_RT) $(PKG_LIBS) $(LDSAN)
LINKC_LIBS = $(LIBC) $(VLC_LIBS) $(VL_RT) $(PKG_LIBS) $(LDSAN)

.PHONY: all deps run test test-asan test-tsan lint timing formal bench waves wave-shots clean help cmodel-alone example fuzz plots replay-tb systemc mutate
.DEFAULT_GOAL := all

all: $(UBSIM) $(UBSIMC) $(TESTS) $(EXAMPLE) $(CMODEL_ALONE).ok

help:
	@sed -n '3,/^#   make clean/p' Makefile | sed 's/^# \{0,1\}//'

# --- dependencies (Debian 12) ----------------------------------------------
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null && \
	  echo "make deps: done"; \
	fi

# --- C model and simulator -------------------------------------------------
$(BUILD)/obj/%.o: %.c $(PGO_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(PGO_USE) -I$(VL_INC)/gtkwave -MMD -MP -c $< -o $@

# --- the profile the C code is optimised with (PGO=1) ------------------------
# The same sources instrumented, linked with the same blocks, run on the
# training set, one simulation at a time (--jobs 1: the counters of an
# instrumented build are not shared between threads); the use build above
# reads $(PGO_DIR)/data.
PGO_TRAIN := latency --ops 20000 --quiet; \
             latency --path ub_async --ops 100000 --quiet; \
             rate --burst 20000 --slots 256 --quiet; \
             rate --burst 2000 --quiet --payload 9000; \
             latency --path ub_async --ops 2000 --backend rtl --quiet; \
             rate --burst 5000 --slots 256 --backend rtl --quiet; \
             rate --burst 1000 --slots 256 --backend lockstep --quiet; \
             latency --path ub_async --ops 20000 --set context.cache_bytes=0 --quiet; \
             latency --topology configs/topo/line4.ini --path ub_async --ops 300 --transport on \
               --fault loss=1e-2,seed=3 --quiet
$(BUILD)/pgo/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -fprofile-generate=$(PGO_DIR)/data -dumpbase $< \
	  -fprofile-update=single $(LTO) -I$(VL_INC)/gtkwave -MMD -MP -c $< -o $@
$(BUILD)/pgo/obj/sim/rtl/%_rtl.o: sim/rtl/%_rtl.cc $(BUILD)/vl/%.gen $(BUILD)/vl/%/ports.ok $(BUILD)/vlf/%.gen
	@mkdir -p $(dir $@)
	$(SHIM_CXX) -fprofile-generate=$(PGO_DIR)/data -dumpbase $< -fprofile-update=single -c $< -o $@
# (the traced models are not trained: they run only when a trace is written)
PGO_VL_LIBS := $(patsubst %,$(BUILD)/vl/lib%.a,$(RTL_TOPS)) $(patsubst %,$(PGO_DIR)/vlf/lib%_f.a,$(RTL_TOPS))
$(PGO_DIR)/ubsim: $(patsubst %.c,$(BUILD)/pgo/obj/%.o,$(C_SRCS) sim/app/main.c) \
                  $(patsubst %.cc,$(BUILD)/pgo/obj/%.o,$(SHIM_SRCS)) $(PGO_VL_LIBS) $(VL_RT)
	$(CXX) -fprofile-generate $(filter %.o,$^) $(PGO_VL_LIBS) $(VL_RT) $(PKG_LIBS) -o $@
$(PGO_STAMP): $(PGO_DIR)/ubsim
	@rm -rf $(PGO_DIR)/data
	@echo "profile: training the C code on $$(echo '$(PGO_TRAIN)' | tr ';' '\n' | wc -l) runs"
	@echo '$(PGO_TRAIN)' | tr ';' '\n' | while read -r r; do $(PGO_DIR)/ubsim $$r --jobs 1 >/dev/null || \
	  { echo "profile: training run failed: ubsim $$r"; exit 1; }; done
	@touch $@

# Verilated model of one top-level block: build/vl/lib<block>.a, and the
# checked flavour build/vlc/lib<block>.a.
# $(call verilate,<block>,<SystemVerilog files>,<port list header>[,vlc]):
# Verilator (-Wall) into build/vl/<block>/ (or build/vlc/<block>/, with the
# assertions: VL_CHECKED), then the port check (scripts/portcheck.py: the
# model's ports must be the port list's, in name, direction and width; the
# build stops here otherwise).
PORTCHECK = /usr/bin/python3 scripts/portcheck.py --cpp "$(CC) -E"
VL_CHECKED := --assert +define+UB_ASSERTS
define verilate
	@mkdir -p $(BUILD)/$(or $(4),vl)/$(1)
	$(VERILATOR) --cc --trace-fst --trace-structs -Wall -O3 $(if $(4),$(VL_CHECKED)) -y rtl -Irtl \
	  --prefix V$(1) --top-module $(1) -Mdir $(BUILD)/$(or $(4),vl)/$(1) $(2)
	$(PORTCHECK) $(1) $(BUILD)/$(or $(4),vl)/$(1)/V$(1).h $(3)
endef
# $(call verilate_untraced,<block>,<SystemVerilog files>,<port list header>):
# the same model without trace code, as class V<block>_f in build/vlf/<block>/.
define verilate_untraced
	@mkdir -p $(BUILD)/vlf/$(1)
	$(VERILATOR) --cc -Wall -O3 -y rtl -Irtl \
	  --prefix V$(1)_f --top-module $(1) -Mdir $(BUILD)/vlf/$(1) $(2)
	$(PORTCHECK) $(1) $(BUILD)/vlf/$(1)/V$(1)_f.h $(3)
endef

# $(call vl_compile,<block>,<directory>,<compiler options>): the C++ compile
# of the Verilated model in <directory> (build/vl/<block>/, or a copy of it;
# build/vl/<block>.gen stands for Verilator's output being there),
# into $@. In the sanitizer build the model's trace code (Verilator's, with
# packed 64-bit loads) is not alignment-checked, and its debug information
# keeps no variable tracking (a large block's edge function exceeds gcc's
# limit for it, which gcc notes as it retries without).
# The compile is stopped with a message after VL_COMPILE_LIMIT seconds:
# UBSan's instrumentation grows with the depth of an expression, and one deep
# expression in a block's RTL (e.g. a hundred single-bit assigns to one
# vector, which Verilator joins into one) takes gcc hours, not seconds.
VL_COMPILE_LIMIT ?= 1800
define vl_compile
	rm -f $(2)/*.o $(2)/*.a
	@echo "compiling the Verilated $(1) in $(2)"
	+@timeout $(VL_COMPILE_LIMIT) $(MAKE) -s -C $(2) -f V$(1).mk OPT_FAST="$(3)" OPT_SLOW="-O1" \
	  CXX="$(CXX)" CXXFLAGS="$(if $(filter-out 0,$(SAN)),$(LDSAN) -fno-sanitize=alignment -g -fno-omit-frame-pointer -fno-var-tracking-assignments)" \
	  V$(1)__ALL.a >/dev/null || { rc=$$?; [ $$rc -ne 124 ] || \
	  echo "error: compiling the Verilated $(1) in $(2) took over $(VL_COMPILE_LIMIT) s; look for a deep expression in $(2)/*.cpp (see the Makefile's vl_compile)" >&2; exit $$rc; }
	cp $(2)/V$(1)__ALL.a $@
endef

# The untraced models the simulator runs are optimised like its C code
# (PGO=1): compiled once instrumented, in a copy under build/pgo/vlf/, for the
# training runs, then with what those counted and link-time optimisation (the
# profile's file names relative to the build directory, so the two meet).
# The traced models, which run only when a trace is written, are compiled
# once, plainly.
ifeq ($(PGO),1)
  VL_OPT = -O2 -fprofile-use=$(PGO_DIR)/data -fprofile-prefix-path=$(abspath $(BUILD)) \
           -fprofile-partial-training -Wno-missing-profile $(LTO)
  SHIM_PGO = -fprofile-use=$(PGO_DIR)/data -dumpbase $< -fprofile-partial-training -Wno-missing-profile $(LTO)
else
  VL_OPT = -O2
endif

VL_GEN := $(patsubst %,$(BUILD)/vl/%.gen,$(RTL_TOPS))
.SECONDARY: $(VL_GEN)
$(BUILD)/vl/%.gen: rtl/%.sv $(RTL_SRCS) Makefile
	$(call verilate,$*,$(RTL_PKG) rtl/$*.sv,cmodel/$*_ports.h)
	@touch $@

$(BUILD)/vl/lib%.a: $(BUILD)/vl/%.gen
	$(call vl_compile,$*,$(BUILD)/vl/$*,-O2)

VLF_GEN := $(patsubst %,$(BUILD)/vlf/%.gen,$(RTL_TOPS))
.SECONDARY: $(VLF_GEN)
$(BUILD)/vlf/%.gen: rtl/%.sv $(RTL_SRCS) Makefile
	$(call verilate_untraced,$*,$(RTL_PKG) rtl/$*.sv,cmodel/$*_ports.h)
	@touch $@

$(BUILD)/vlf/lib%_f.a: $(BUILD)/vlf/%.gen $(PGO_DEP)
	$(call vl_compile,$*_f,$(BUILD)/vlf/$*,$(VL_OPT))

# The checked flavour: compiled once, without the profile (it runs only in
# the tests and in ubsim-checked).
VLC_GEN := $(patsubst %,$(BUILD)/vlc/%.gen,$(RTL_TOPS))
.SECONDARY: $(VLC_GEN)
$(BUILD)/vlc/%.gen: rtl/%.sv $(RTL_SRCS) Makefile
	$(call verilate,$*,$(RTL_PKG) rtl/$*.sv,cmodel/$*_ports.h,vlc)
	@touch $@

$(BUILD)/vlc/lib%.a: $(BUILD)/vlc/%.gen
	$(call vl_compile,$*,$(BUILD)/vlc/$*,-O2)

$(PGO_DIR)/vlf/lib%_f.a: $(BUILD)/vlf/%.gen
	rm -rf $(PGO_DIR)/vlf/$* && mkdir -p $(PGO_DIR)/vlf/$*
	cp $(BUILD)/vlf/$*/*.cpp $(BUILD)/vlf/$*/*.h $(BUILD)/vlf/$*/*.mk $(PGO_DIR)/vlf/$*/
	$(call vl_compile,$*_f,$(PGO_DIR)/vlf/$*,-O2 -fprofile-generate=$(PGO_DIR)/data \
	  -fprofile-prefix-path=$(PGO_DIR) -fprofile-update=single)

$(TB_VL_LIBS): $(BUILD)/vlc/lib%.a: testbench/rtl/%.sv testbench/%_ports.h Makefile
	$(call verilate,$*,testbench/rtl/$*.sv,testbench/$*_ports.h,vlc)
	$(call vl_compile,$*,$(BUILD)/vlc/$*,-O2)

# The port check again when only the port list (or the check) changed.
PORTS_OK := $(patsubst %,$(BUILD)/vl/%/ports.ok,$(RTL_TOPS))
$(PORTS_OK): $(BUILD)/vl/%/ports.ok: $(BUILD)/vl/%.gen cmodel/%_ports.h scripts/portcheck.py
	$(PORTCHECK) $* $(BUILD)/vl/$*/V$*.h cmodel/$*_ports.h
	@touch $@

# Shim C++ objects see their block's generated headers (and instantiate
# Verilator's trace templates: not alignment-checked, as above); those of
# the checked flavour, its models' headers.
SHIM_CXX = $(CXX) $(CPPFLAGS) $(CXXFLAGS) -isystem $(BUILD)/vl/$* -isystem $(BUILD)/vlf/$* \
           -DBLOCK_RTL_WANT_UNTRACED -isystem $(VL_INC) -isystem $(VL_INC)/vltstd -MMD -MP
$(BUILD)/obj/sim/rtl/%_rtl.o: sim/rtl/%_rtl.cc $(BUILD)/vl/%.gen $(BUILD)/vl/%/ports.ok $(BUILD)/vlf/%.gen $(PGO_DEP)
	@mkdir -p $(dir $@)
	$(SHIM_CXX) $(SHIM_PGO) $(if $(filter 1,$(SAN)),-fno-sanitize=alignment) -c $< -o $@
$(BUILD)/objc/sim/rtl/%_rtl.o: sim/rtl/%_rtl.cc $(BUILD)/vlc/%.gen
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -isystem $(BUILD)/vlc/$* -isystem $(VL_INC) -isystem $(VL_INC)/vltstd \
	  -MMD -MP $(if $(filter 1,$(SAN)),-fno-sanitize=alignment) -c $< -o $@

VL_RT_SRCS := verilated verilated_fst_c verilated_vcd_c verilated_threads
$(VL_RT): Makefile
	@mkdir -p $(BUILD)/vl/rt
	for f in $(VL_RT_SRCS); do \
	  $(CXX) -std=gnu++17 $(VLRT_OPT) -w -I$(VL_INC) -I$(VL_INC)/vltstd -c $(VL_INC)/$$f.cpp -o $(BUILD)/vl/rt/$$f.o || exit 1; \
	done
	ar rcs $@ $(patsubst %,$(BUILD)/vl/rt/%.o,$(VL_RT_SRCS))

# The SystemC engine (sim/systemc/, docs/systemc.md): linked into the
# programs built on SystemC; for ubsim, a plugin (build/ubsim_systemc.so)
# loaded the first time --engine systemc asks for it (sim/app/engine_load.c),
# so that no other run loads and starts the SystemC library. The plugin calls
# into the simulator in ubsim, which exports exactly those functions: the
# list is worked out from the objects (what they use that the library
# defines).
$(BUILD)/obj/sim/systemc/%.o: sim/systemc/%.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(PKG_CFLAGS) $(CXXFLAGS) $(SC_CFLAGS) -fPIC -MMD -MP -c $< -o $@

SC_PLUGIN := $(BUILD)/ubsim_systemc.so
SC_SYMS   := $(BUILD)/ubsim_systemc.syms
$(SC_PLUGIN): $(SC_OBJS)
	$(CXX) -shared $(SC_OBJS) $(SC_LIBS) $(LDSAN) -o $@
$(SC_SYMS): $(SC_OBJS) $(LIB) $(VL_LIBS)
	nm -u $(SC_OBJS) | awk 'NF == 2 {print $$2}' | sort -u > $@.used
	nm -g --defined-only $(LIB) $(VL_LIBS) 2>/dev/null | awk 'NF == 3 {print $$3}' | sort -u > $@.defined
	{ echo '{'; comm -12 $@.used $@.defined | sed 's/.*/  &;/'; echo '};'; } > $@
	@rm -f $@.used $@.defined

$(LIB): $(C_OBJS) $(SHIM_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(LIBC): $(C_OBJS) $(SHIMC_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The version `ubsim --version` prints: `git describe` of the checkout, or
# "unknown" outside one. version.txt is rewritten only when the version
# changes, so main.o is rebuilt only then.
UBSIM_VERSION := $(shell git -C "$(CURDIR)" describe --always --dirty 2>/dev/null || echo unknown)
$(BUILD)/version.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(UBSIM_VERSION)' | cmp -s - $@ || echo '$(UBSIM_VERSION)' > $@
.PHONY: FORCE
FORCE:

$(BUILD)/obj/sim/app/main.o: sim/app/main.c $(PGO_DEP) $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(PGO_USE) -DUBSIM_VERSION='"$(UBSIM_VERSION)"' \
	  -MMD -MP -c $< -o $@

# (each exported function is also linked in when ubsim itself does not use
# it, and the link fails if one is missing from the program)
$(UBSIM): $(BUILD)/obj/sim/app/main.o $(LIB) $(VL_LIBS) $(VL_RT) $(SC_SYMS) | $(SC_PLUGIN)
	$(CXX) $(LTO_LINK) $< $$(sed -n 's/^  \(.*\);$$/-Wl,--undefined=\1/p' $(SC_SYMS)) $(LINK_LIBS) \
	  -Wl,--dynamic-list=$(SC_SYMS) -o $@
	@sed -n 's/^  \(.*\);$$/\1/p' $(SC_SYMS) | sort > $@.exports
	@nm -D --defined-only $@ | awk '{print $$NF}' | sort | comm -23 $@.exports - > $@.missing; \
	if [ -s $@.missing ]; then echo "$@ does not export what the SystemC plugin calls:"; \
	  cat $@.missing; rm -f $@ $@.exports $@.missing; exit 1; fi; rm -f $@.exports $@.missing

# ubsim with every RTL assertion checked (the tests run it; the same
# commands and figures, slower on the RTL and lockstep backends).
$(UBSIMC): $(BUILD)/obj/sim/app/main.o $(LIBC) $(VLC_LIBS) $(VL_RT) $(SC_SYMS) | $(SC_PLUGIN)
	$(CXX) $< $$(sed -n 's/^  \(.*\);$$/-Wl,--undefined=\1/p' $(SC_SYMS)) $(LINKC_LIBS) \
	  -Wl,--dynamic-list=$(SC_SYMS) -o $@

# The example workload of docs/verbs.md, a program of its own on the library.
$(EXAMPLE): $(BUILD)/obj/docs/examples/verbs_example.o $(LIB) $(VL_LIBS) $(VL_RT)
	$(CXX) $< $(LINK_LIBS) -o $@

# What one clock edge of a block costs through the block API, per backend
# (make bench, section 6).
BLOCK_SPEED := $(BUILD)/block_speed
# (linked as ubsim is, with link-time optimisation when PGO=1)
$(BLOCK_SPEED): $(BUILD)/obj/testbench/block_speed.o $(LIB) $(VL_LIBS) $(VL_RT)
	$(CXX) $(LTO_LINK) $< $(LINK_LIBS) -o $@

example: deps
	@$(MAKE) --no-print-directory $(EXAMPLE)
	$(EXAMPLE)

# --- the C models alone -----------------------------------------------------
# cmodel/ must build with nothing but itself: every cmodel/*.c plus
# testbench/cmodel_alone.c, compiled with -Icmodel only (no sim/, no
# Verilator), linked and run. An include of a path outside cmodel/ fails too.
$(CMODEL_ALONE): $(CMODEL_SRCS) $(wildcard cmodel/*.h) testbench/cmodel_alone.c Makefile
	@mkdir -p $(dir $@)
	@if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' cmodel/*.[ch]; then \
	  echo "cmodel/ must not include files outside cmodel/ (above)"; exit 1; fi
	$(CC) -std=c11 $(OPT) -Wall -Wextra -Werror -Icmodel $(CMODEL_SRCS) testbench/cmodel_alone.c -o $@

$(CMODEL_ALONE).ok: $(CMODEL_ALONE)
	$(CMODEL_ALONE)
	@touch $@

cmodel-alone: $(CMODEL_ALONE)
	$(CMODEL_ALONE)

# --- tests -----------------------------------------------------------------
# A test-only block's shim, like sim/rtl's.
$(BUILD)/obj/testbench/%_rtl.o: testbench/%_rtl.cc $(BUILD)/vlc/lib%.a
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) $(if $(filter 1,$(SAN)),-fno-sanitize=alignment) -Itestbench -isystem $(BUILD)/vlc/$* -isystem $(VL_INC) -isystem $(VL_INC)/vltstd -MMD -MP -c $< -o $@

$(BUILD)/obj/testbench/%.o: testbench/%.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(PKG_CFLAGS) $(CXXFLAGS) $(shell pkg-config --cflags gtest 2>/dev/null) -I$(VL_INC)/gtkwave \
	  -DUBSIM_BIN='"$(abspath $(UBSIMC))"' -DUBSIM_PLAIN_BIN='"$(abspath $(UBSIM))"' -DUBSIM_BUILD_DIR='"$(abspath $(BUILD))"' -MMD -MP -c $< -o $@

$(TESTS): $(TEST_OBJS) $(TB_C_OBJS) $(LIBC) $(VLC_LIBS) $(TB_VL_LIBS) $(VL_RT)
	$(CXX) $(TEST_OBJS) $(TB_C_OBJS) $(LIBC) $(VLC_LIBS) $(TB_VL_LIBS) $(VL_RT) $(PKG_LIBS) $(LDSAN) \
	  $(shell pkg-config --libs gtest 2>/dev/null) -o $@

# No test can hang the run: every GoogleTest test has UBSIM_TEST_TIMEOUT
# seconds (testbench/main.cc) and every command it starts
# UBSIM_TEST_SUBPROCESS_TIMEOUT (testbench/test_util.h); the SystemC test
# programs, which are not GoogleTest, have TEST_LIMIT_S each. The sanitizer
# builds, several times slower, have longer limits.
TEST_LIMIT_S ?= 600
TEST_LIMIT = timeout -k 10 $(TEST_LIMIT_S)
test: deps
	@$(MAKE) --no-print-directory $(UBSIM) $(UBSIMC) $(TESTS) $(EXAMPLE) replay-tb $(SC_TEST) $(SC_EP_TEST) $(SC_EXAMPLE)
	@$(MAKE) --no-print-directory cmodel-alone
	$(TESTS)
	$(TEST_LIMIT) $(SC_TEST)
	$(TEST_LIMIT) $(SC_EP_TEST)
	$(TEST_LIMIT) $(SC_EXAMPLE)

test-asan: deps
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=1 build/asan/ubsim-checked build/asan/ubsim_tests build/asan/verbs_example \
	  build/asan/sc_block_test build/asan/sc_endpoint_test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 UBSIM_TEST_SHORT=1 UBSIM_TEST_TIMEOUT=900 UBSIM_TEST_SUBPROCESS_TIMEOUT=600 build/asan/ubsim_tests
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 UBSIM_TEST_SHORT=1 $(TEST_LIMIT) build/asan/sc_block_test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 UBSIM_TEST_SHORT=1 $(TEST_LIMIT) build/asan/sc_endpoint_test

# The simulations a command runs side by side (--jobs, sim/core/jobs.h) under
# ThreadSanitizer: ubsim itself, on every backend and engine that threads.
test-tsan: deps
	@$(MAKE) --no-print-directory BUILD=build/tsan SAN=thread build/tsan/ubsim-checked build/tsan/ubsim_tests
	TSAN_OPTIONS=halt_on_error=1 UBSIM_TEST_SHORT=1 UBSIM_TEST_TIMEOUT=900 UBSIM_TEST_SUBPROCESS_TIMEOUT=600 build/tsan/ubsim_tests --gtest_filter='*SideBySide*:Jobs.*'

# --- SystemC models of the blocks (sim/systemc/, docs/systemc.md) ------------
SC_TEST := $(BUILD)/sc_block_test
SC_EP_TEST := $(BUILD)/sc_endpoint_test
SC_EXAMPLE := $(BUILD)/sc_cpu_example
systemc: deps
	@$(MAKE) --no-print-directory $(SC_TEST) $(SC_EP_TEST) $(SC_EXAMPLE)
$(SC_EXAMPLE): docs/examples/sc_cpu_example.cc sim/systemc/ub_endpoint.h $(SC_OBJS) $(LIB) $(VL_LIBS) $(VL_RT)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(PKG_CFLAGS) $(CXXFLAGS) $(SC_CFLAGS) $< $(SC_OBJS) $(LINK_LIBS) $(SC_LIBS) -o $@
$(SC_EP_TEST): testbench/systemc/sc_endpoint_test.cc testbench/systemc/sc_check.h sim/systemc/ub_endpoint.h $(SC_OBJS) $(LIBC) $(VLC_LIBS) $(VL_RT)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(PKG_CFLAGS) $(CXXFLAGS) $(SC_CFLAGS) $< $(SC_OBJS) $(LINKC_LIBS) $(SC_LIBS) -o $@
$(SC_TEST): testbench/systemc/sc_block_test.cc testbench/systemc/sc_check.h sim/systemc/sc_block.h $(SC_OBJS) $(LIBC) $(VLC_LIBS) $(VL_RT)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) -Isim/systemc $(CXXFLAGS) $(shell pkg-config --cflags systemc) $< \
	  $(SC_OBJS) $(LINKC_LIBS) $(SC_LIBS) -o $@

# --- replay testbenches (docs/vectors.md) -------------------------------------
REPLAY_TBS := $(patsubst %,$(BUILD)/replay/%_replay.sv,$(RTL_TOPS))
replay-tb: $(REPLAY_TBS)
$(BUILD)/replay/%_replay.sv: cmodel/%_ports.h scripts/gen_replay.py scripts/portcheck.py
	@mkdir -p $(dir $@)
	/usr/bin/python3 scripts/gen_replay.py --cpp "$(CC) -E" -I cmodel $* $< $@

# --- running ---------------------------------------------------------------
run: deps
	@$(MAKE) --no-print-directory $(UBSIM)
	$(UBSIM) latency

# Every dump a save file in waves/ opens: each .gtkw names the command that
# writes its dump ("[*] Made by:"), and these are those commands
# (WaveSaves.EverySignalIsInTheDumpItsCommandWrites checks them).
waves: $(UBSIM)
	$(UBSIM) latency --wave waves/read_latency.fst >/dev/null
	$(UBSIM) latency --wave waves/read_latency.vcd >/dev/null
	$(UBSIM) rate --quiet --stack ub --burst 64 --backend lockstep --wave waves/ub_rate.fst >/dev/null
	$(UBSIM) rate --quiet --stack roce --burst 64 --backend lockstep --wave waves/rc_rate.fst >/dev/null
	$(UBSIM) loss --message 32768 --mtu 4096 --link-ns 1000 --fault drop=fwd:1 --rto-ns 10000 --scheme sack \
	  --backend rtl --wave waves/transport.fst >/dev/null
	$(UBSIM) cache --stack ub --n 64 --reads 100 --cache-bytes 8192 --sets-log2 1 --ways 8 --backend rtl \
	  --quiet --wave waves/context_cache.fst >/dev/null
	@ls -l waves/*.fst waves/*.vcd

# The screenshots of the README and docs/rtl.md, from those dumps (GTKWave on
# a virtual display: xvfb, imagemagick).
wave-shots: waves
	scripts/wave_shot.sh waves/read_latency.fst waves/read_latency.gtkw docs/img/read_latency.png
	scripts/wave_shot.sh waves/ub_rate-rtl.fst waves/ub_send_pipeline.gtkw docs/img/ub_send_pipeline_rtl.png

bench: deps
	@$(MAKE) --no-print-directory $(UBSIM) $(BLOCK_SPEED)
	@/usr/bin/python3 scripts/bench.py $(UBSIM)

# --- plots (python3-matplotlib): every figure from the JSON ubsim prints ---
# (docs/results.md shows them; the JSON stays in $(BUILD)/plots/)
PLOT         = /usr/bin/python3 scripts/plot_results.py
PLOT_LINK_NS = 0 50 100 200 400 800
PLOT_SLOTS   = 1 4 16 64 256 1024
PLOT_SENDERS = 1 2 4 8 12 16
plots: deps
	@$(MAKE) --no-print-directory $(UBSIM)
	@mkdir -p $(BUILD)/plots docs/img
	$(UBSIM) loss --quiet --format json > $(BUILD)/plots/loss.json
	/usr/bin/python3 scripts/plot_loss.py $(BUILD)/plots/loss.json docs/img/loss.png
	$(UBSIM) cache --quiet --format json > $(BUILD)/plots/cache.json
	/usr/bin/python3 scripts/plot_cache.py $(BUILD)/plots/cache.json docs/img/cache.png
	$(UBSIM) latency --format json > $(BUILD)/plots/latency.json
	$(PLOT) breakdown $(BUILD)/plots/latency.json docs/img/breakdown.png
	for l in $(PLOT_LINK_NS); do $(UBSIM) latency --link-ns $$l --format json > $(BUILD)/plots/latency_L$$l.json || exit 1; done
	$(PLOT) wire docs/img/wire.png $(patsubst %,$(BUILD)/plots/latency_L%.json,$(PLOT_LINK_NS))
	$(UBSIM) rate --quiet --burst 2,4,8,16,32,64,128,256,1024,4096 --format json > $(BUILD)/plots/ramp.json
	$(PLOT) ramp $(BUILD)/plots/ramp.json docs/img/ramp.png
	for m in 64 4096; do for n in $(PLOT_SLOTS); do \
	  $(UBSIM) rate --quiet --burst 20000 --slots $$n --payload $$m --format json > $(BUILD)/plots/slots_$${m}_$$n.json || exit 1; done; done
	$(PLOT) concurrency docs/img/concurrency.png $(foreach m,64 4096,$(patsubst %,$(BUILD)/plots/slots_$(m)_%.json,$(PLOT_SLOTS)))
	for n in $(PLOT_SENDERS); do $(UBSIM) incast --quiet --senders $$n --format json > $(BUILD)/plots/incast_$$n.json || exit 1; done
	$(PLOT) incast docs/img/incast.png $(patsubst %,$(BUILD)/plots/incast_%.json,$(PLOT_SENDERS))

# --- fuzzing (clang-14 + libFuzzer, ASan + UBSan) --------------------------
# rx_fuzz: the receive-side parsers and the transport's inputs
# (testbench/fuzz/rx_fuzz.c); trace_fuzz: the waveform reader of `ubsim diff`,
# with the FST check before the FST reader (testbench/fuzz/trace_fuzz.c);
# config_fuzz, topo_fuzz: the path configuration and topology file parsers.
# `make fuzz` runs FUZZ_RUNS executions of each from its seeds (rx_fuzz's
# from testbench/fuzz/seeds.c; trace_fuzz's the waveforms ubsim writes, the
# FST writer's other forms and copies with a byte changed, from
# testbench/fuzz/trace_seeds.c; the INI files of configs/ and configs/topo/)
# and fails if any saved a failing input (crash, leak, timeout, out of
# memory) in $(BUILD)/fuzz/ (each one's output: $(BUILD)/fuzz/TARGET.log);
# CI runs a short one.
FUZZ_RUNS ?= 10000000
FUZZ_CC   := clang-14
FUZZ_LIB  := sim/net/packet.c sim/node/rx_check.c sim/node/mem.c cmodel/transport.c
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Wall -Wextra -Werror \
              -Icmodel -Isim/net -Isim/node
FUZZ_SAN  := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_TARGETS := rx_fuzz trace_fuzz config_fuzz topo_fuzz
# the FST reader and writer with their decompressors, with the configuration
# Verilator compiles them with (third-party code: address-checked only, as in
# the sanitizer build), with coverage for the fuzzer
FUZZ_FST  = $(addprefix $(BUILD)/fuzz/fst/,fstapi.o lz4.o fastlz.o)
FUZZ_APP_FLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Wall -Wextra -Werror $(CPPFLAGS) \
                 $(PKG_CFLAGS) -I$(VL_INC)/gtkwave
# what each parser links with (the config parser names blocks through the
# block API, which brings the wave and vector writers)
FUZZ_TRACE_LIB := sim/core/trace_read.c sim/core/fst_check.c sim/core/strmap.c
FUZZ_CFG_LIB  := sim/app/config.c sim/app/ini_lines.c sim/core/text.c sim/core/strmap.c sim/core/block.c \
                 sim/core/vectors.c sim/core/wave.c cmodel/nic_pipe.c
FUZZ_TOPO_LIB := $(FUZZ_CFG_LIB) sim/app/topo_file.c sim/net/topo.c
$(BUILD)/fuzz/fst/%.o: $(VL_INC)/gtkwave/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -w -fsanitize=fuzzer-no-link,address -I$(VL_INC)/gtkwave \
	  -DFST_CONFIG_INCLUDE='"fst_config.h"' -DHAVE_LIBPTHREAD -DFST_WRITER_PARALLEL -c $< -o $@
$(BUILD)/fuzz/rx_fuzz: testbench/fuzz/rx_fuzz.c $(FUZZ_LIB) $(wildcard cmodel/*.h sim/net/*.h sim/node/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_SAN) testbench/fuzz/rx_fuzz.c $(FUZZ_LIB) -lz -o $@
$(BUILD)/fuzz/trace_fuzz: testbench/fuzz/trace_fuzz.c $(FUZZ_TRACE_LIB) $(FUZZ_FST) $(wildcard sim/core/*.h)
	$(FUZZ_CC) $(FUZZ_APP_FLAGS) $(FUZZ_SAN) testbench/fuzz/trace_fuzz.c $(FUZZ_TRACE_LIB) $(FUZZ_FST) \
	  -lz -pthread -o $@
$(BUILD)/fuzz/config_fuzz: testbench/fuzz/config_fuzz.c $(FUZZ_CFG_LIB) $(FUZZ_FST) \
                           $(wildcard sim/app/*.h sim/core/*.h cmodel/*.h)
	$(FUZZ_CC) $(FUZZ_APP_FLAGS) $(FUZZ_SAN) testbench/fuzz/config_fuzz.c $(FUZZ_CFG_LIB) $(FUZZ_FST) \
	  $(PKG_LIBS) -lm -o $@
$(BUILD)/fuzz/topo_fuzz: testbench/fuzz/topo_fuzz.c $(FUZZ_TOPO_LIB) $(FUZZ_FST) \
                         $(wildcard sim/app/*.h sim/core/*.h sim/net/*.h cmodel/*.h)
	$(FUZZ_CC) $(FUZZ_APP_FLAGS) $(FUZZ_SAN) testbench/fuzz/topo_fuzz.c $(FUZZ_TOPO_LIB) $(FUZZ_FST) \
	  $(PKG_LIBS) -lm -o $@
$(BUILD)/fuzz/seeds: testbench/fuzz/seeds.c $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) testbench/fuzz/seeds.c sim/net/packet.c -lz -o $@
$(BUILD)/fuzz/trace_seeds: testbench/fuzz/trace_seeds.c $(FUZZ_FST)
	$(FUZZ_CC) $(FUZZ_APP_FLAGS) -fsanitize=address testbench/fuzz/trace_seeds.c $(FUZZ_FST) -lz -pthread -o $@
# the waveforms ubsim writes, small ones: C model and RTL, VCD and FST
FUZZ_WAVES = latency --wave $(BUILD)/fuzz/waves/lat.fst; \
             latency --ops 2 --path ub_async --wave $(BUILD)/fuzz/waves/lat.vcd; \
             rate --quiet --stack ub --burst 8 --backend c --wave $(BUILD)/fuzz/waves/rate.fst; \
             rate --quiet --stack roce --burst 4 --backend rtl --wave $(BUILD)/fuzz/waves/rtl.fst
fuzz: deps $(addprefix $(BUILD)/fuzz/,$(FUZZ_TARGETS) seeds trace_seeds) $(UBSIM)
	@rm -rf $(BUILD)/fuzz/seeds_* $(BUILD)/fuzz/waves && \
	  mkdir -p $(addprefix $(BUILD)/fuzz/seeds_,$(FUZZ_TARGETS)) $(BUILD)/fuzz/waves
	$(BUILD)/fuzz/seeds $(BUILD)/fuzz/seeds_rx_fuzz
	@echo '$(FUZZ_WAVES)' | tr ';' '\n' | while read -r r; do $(UBSIM) $$r >/dev/null || \
	  { echo "make fuzz: ubsim $$r failed"; exit 1; }; done
	$(BUILD)/fuzz/trace_seeds $(BUILD)/fuzz/seeds_trace_fuzz $(BUILD)/fuzz/waves/*
	cp configs/*.ini $(BUILD)/fuzz/seeds_config_fuzz/
	cp configs/topo/*.ini $(BUILD)/fuzz/seeds_topo_fuzz/
	@cd $(BUILD)/fuzz && for t in $(FUZZ_TARGETS); do \
	  case $$t in rx_fuzz) len=4096;; trace_fuzz) len=16384;; *) len=8192;; esac; \
	  mkdir -p corpus_$$t; echo "make fuzz: $$t"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./$$t -runs=$(FUZZ_RUNS) -max_len=$$len \
	    -timeout=30 -seed=1 -artifact_prefix=$$t- -print_final_stats=1 corpus_$$t seeds_$$t > $$t.log 2>&1; \
	  grep -E "^(Done|INFO: Seed|stat::number_of_executed_units|stat::peak_rss|==|SUMMARY|$$t)" $$t.log; \
	  grep -q '^Done ' $$t.log || ls $$t-crash-* $$t-leak-* $$t-timeout-* $$t-oom-* >/dev/null 2>&1 || \
	    { echo "make fuzz: $$t did not run to its end (see $(BUILD)/fuzz/$$t.log)"; exit 1; }; \
	done
	@test -z "$$(ls $(BUILD)/fuzz/*crash-* $(BUILD)/fuzz/*leak-* $(BUILD)/fuzz/*timeout-* $(BUILD)/fuzz/*oom-* 2>/dev/null)" || \
	  { echo "make fuzz: a failing input was saved:"; \
	    ls $(BUILD)/fuzz/*crash-* $(BUILD)/fuzz/*leak-* $(BUILD)/fuzz/*timeout-* $(BUILD)/fuzz/*oom-* 2>/dev/null; exit 1; }
	@echo "make fuzz: $(FUZZ_TARGETS): $(FUZZ_RUNS) runs each, clean"

# --- mutation testing (scripts/mutate.py, docs/mutations.md) ---------------
# Each mutation of the script's table, one at a time, in a copy of the tree
# rebuilt from a copy of build/dev (a PGO=0 build, made first), and the tests
# that must catch it. MUTATE_ARGS: mutation names or options of the script.
# Not part of `make test`.
MUTATE_ARGS ?=
mutate: deps
	@$(MAKE) --no-print-directory PGO=0 BUILD=build/dev build/dev/ubsim build/dev/ubsim-checked build/dev/ubsim_tests
	/usr/bin/python3 scripts/mutate.py --build-from build/dev $(MUTATE_ARGS)

# --- RTL quality -----------------------------------------------------------
lint:
	@scripts/lint.sh

timing: deps
	@scripts/timing.sh

formal: deps
	@scripts/formal.sh

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(BUILD)/objc $(BUILD)/pgo/obj -name '*.d' 2>/dev/null)
