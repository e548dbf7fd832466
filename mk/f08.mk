# mk/f08.mk — `use mpi_f08` (included by the Makefile): tools/gen-f08 turns api/mpi.api into
# the module's procedures and their C wrappers, and mpi.h's values into its constants; built
# into librmp-mpi-f08 (.a, .so over librmp-mpi) and the .mod files in $(F08_MODDIR). Built only
# with a Fortran compiler (gfortran >= 12: TYPE(*), DIMENSION(..) and ISO_Fortran_binding.h).

F08_FC := $(if $(filter default undefined,$(origin FC)),gfortran,$(FC))
F08_API ?= api/mpi.api
F08_HAVE := $(and $(shell command -v $(F08_FC) 2>/dev/null),$(wildcard $(F08_API)))
F08_DIR := build/$(VARIANT)/f08
F08_MODDIR := $(F08_DIR)/mod
F08_LIB_STATIC := $(OUT)/lib/librmp-mpi-f08.a
F08_LIB_SHARED := $(OUT)/lib/librmp-mpi-f08.so
# The C wrappers see C's descriptors through the compiler's own ISO_Fortran_binding.h.
F08_CFI = $(dir $(shell $(F08_FC) -print-file-name=include/ISO_Fortran_binding.h))
F08_FFLAGS := -g -O2 -fPIC -ffree-line-length-none -Wall -Werror -Wno-c-binding-type -Wno-unused-dummy-argument \
  $(if $(filter release,$(VARIANT)),,-fsanitize=address,undefined)
F08_CFLAGS = $(CFLAGS_ALL) -I$(F08_CFI) -Iinclude/rmp -Ifortran/f08
F08_MODS := handles consts types procs
F08_FOBJ := $(F08_MODS:%=$(F08_DIR)/mpi_f08_%.o) $(F08_DIR)/mpi_f08.o
F08_COBJ := $(F08_DIR)/f08_wrap.o $(patsubst fortran/f08/%.c,$(F08_DIR)/%.o,$(wildcard fortran/f08/*.c))
F08_TEST_SRC := $(wildcard tests/fortran/f08_*.f90)
F08_TEST_BIN := $(F08_TEST_SRC:tests/fortran/%.f90=$(TESTS)/fortran/%)

.PHONY: f08
ifneq ($(F08_HAVE),)
all: f08
tests: $(F08_TEST_BIN)
f08: $(F08_LIB_STATIC) $(F08_LIB_SHARED)
else
f08:
	@echo "rmp: mpi_f08 not built: it needs gfortran >= 12 (apt-get install gfortran) and $(F08_API)"
endif

$(F08_DIR)/mpi_f08_handles.f90: tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 handles > $@.tmp && mv $@.tmp $@
$(F08_DIR)/mpi_f08_procs.f90: $(F08_API) tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 module $< > $@.tmp && mv $@.tmp $@
$(F08_DIR)/f08_wrap.c: $(F08_API) tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 wrappers $< > $@.tmp && mv $@.tmp $@
# The constants are mpi.h's own values, printed by a program linked with this librmp-mpi.
$(F08_DIR)/consts.c: include/rmp/mpi.h $(PMPI_H) tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 consts "$(CC) -Iinclude/rmp" include/rmp/mpi.h > $@.tmp && mv $@.tmp $@
$(F08_DIR)/consts: $(F08_DIR)/consts.c $(MPI_STATIC) $(STATIC)
	$(CC) $(CFLAGS_ALL) -Iinclude/rmp $(LDFLAGS_ALL) -o $@ $< $(MPI_STATIC) $(STATIC) $(LIBS)
$(F08_DIR)/mpi_f08_consts.f90: $(F08_DIR)/consts
	$< > $@.tmp && mv $@.tmp $@
$(F08_DIR)/mpi_f08_types.f90: fortran/f08/mpi_f08_types.f90
	@mkdir -p $(dir $@)
	cp $< $@
$(F08_DIR)/mpi_f08.f90: fortran/f08/mpi_f08.f90
	@mkdir -p $(dir $@)
	cp $< $@

# Each module needs the .mod of the ones before it.
$(F08_DIR)/mpi_f08_consts.o: $(F08_DIR)/mpi_f08_handles.o
$(F08_DIR)/mpi_f08_types.o: $(F08_DIR)/mpi_f08_consts.o
$(F08_DIR)/mpi_f08_procs.o: $(F08_DIR)/mpi_f08_types.o
$(F08_DIR)/mpi_f08.o: $(F08_DIR)/mpi_f08_procs.o
$(F08_DIR)/%.o: $(F08_DIR)/%.f90
	@mkdir -p $(F08_MODDIR)
	$(F08_FC) $(F08_FFLAGS) -J$(F08_MODDIR) -c $< -o $@

$(F08_DIR)/f08_wrap.o: $(F08_DIR)/f08_wrap.c fortran/f08/f08rt.h $(PMPI_H)
	$(CC) $(F08_CFLAGS) -c $< -o $@
$(F08_DIR)/%.o: fortran/f08/%.c fortran/f08/f08rt.h $(PMPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(F08_CFLAGS) -c $< -o $@

$(F08_LIB_STATIC): $(F08_FOBJ) $(F08_COBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(F08_LIB_SHARED): $(F08_FOBJ) $(F08_COBJ) $(MPI_SHARED)
	@mkdir -p $(dir $@)
	$(F08_FC) -shared -Wl,-soname,librmp-mpi-f08.so -Wl,-rpath,'$$ORIGIN' $(LDFLAGS_ALL) -o $@ \
	  $(F08_FOBJ) $(F08_COBJ) -L$(OUT)/lib -lrmp-mpi -lrmp

# Test programs (tests/fortran/f08_*.f90), linked with the shared libraries.
$(TESTS)/fortran/%: tests/fortran/%.f90 tests/fortran/f08check.inc $(F08_LIB_SHARED)
	@mkdir -p $(dir $@)
	$(F08_FC) $(F08_FFLAGS) -I$(F08_MODDIR) -Itests/fortran $(LDFLAGS_ALL) -o $@ $< -L$(OUT)/lib \
	  -Wl,-rpath,$(abspath $(OUT)/lib) -lrmp-mpi-f08 -lrmp-mpi -lrmp
