# mk/f08.mk — `use mpi_f08` (included by the Makefile after mk/fortran.mk, whose library,
# rmpifort and test programs it joins): tools/gen-f08 turns the API description into the
# module's procedures and their C wrappers, and mpi.h's values into its typed constants; the
# objects go into librmp-mpifort, the .mod files beside mpi.mod (what rmpifort's -I names).
# Needs gfortran >= 12 (TYPE(*), DIMENSION(..) and ISO_Fortran_binding.h).

F08_API = $(FORTRAN_API)
F08_DIR := build/$(VARIANT)/f08
F08_MODDIR = $(FDIR)
# The C wrappers see C's descriptors through the compiler's own ISO_Fortran_binding.h; they
# keep default visibility (BIND(C) names the Fortran side calls), unlike fortran/*.c's.
F08_CFI = $(dir $(shell $(RMP_FC) -print-file-name=include/ISO_Fortran_binding.h))
# The Fortran objects are declarations and forwarding only, built without the sanitizers: an
# instrumented BIND(C) object (MPI_STATUS_IGNORE) would be a second definition of C's, an ODR
# violation to ASan. The C side (wrappers, sections) keeps them.
F08_FFLAGS = $(filter-out -fsanitize=%,$(FFLAGS_ALL)) -ffree-line-length-none -Werror \
  -Wno-c-binding-type -Wno-unused-dummy-argument
F08_CFLAGS = $(CFLAGS_ALL) -I$(F08_CFI) -Iinclude/rmp -Ifortran/f08
F08_MODS := handles consts callbacks types procs
F08_FOBJ := $(F08_MODS:%=$(F08_DIR)/mpi_f08_%.o) $(F08_DIR)/mpi_f08.o $(F08_DIR)/mpi_f08_bodies.o
F08_COBJ := $(F08_DIR)/f08_wrap.o $(patsubst fortran/f08/%.c,$(F08_DIR)/%.o,$(wildcard fortran/f08/*.c))
F08_OBJ := $(F08_FOBJ) $(F08_COBJ)
# Into librmp-mpifort: its static rule links $^, its shared one $(F_OBJ).
F_OBJ += $(F08_OBJ)
$(FORT_STATIC) $(FORT_SHARED).0: $(F08_OBJ)

$(F08_DIR)/mpi_f08_handles.f90: tools/gen-f08 tools/f08decls.py
	@mkdir -p $(dir $@)
	tools/gen-f08 handles > $@.tmp && mv $@.tmp $@
$(F08_DIR)/mpi_f08_callbacks.f90: tools/gen-f08 tools/f08decls.py
	@mkdir -p $(dir $@)
	tools/gen-f08 callbacks > $@.tmp && mv $@.tmp $@
$(F08_DIR)/mpi_f08_procs.f90: $(FORTRAN_API) tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 module $< > $@.tmp && mv $@.tmp $@
$(F08_DIR)/mpi_f08_bodies.f90: $(FORTRAN_API) tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 bodies $< > $@.tmp && mv $@.tmp $@
$(F08_DIR)/f08_wrap.c: $(FORTRAN_API) tools/gen-f08
	@mkdir -p $(dir $@)
	tools/gen-f08 wrappers $< > $@.tmp && mv $@.tmp $@
# The constants are mpi.h's own values, printed by a program linked with this librmp-mpi.
$(F08_DIR)/consts.c: include/rmp/mpi.h $(PMPI_H) tools/gen-f08 tools/f08decls.py
	@mkdir -p $(dir $@)
	tools/gen-f08 consts "$(CC) -Iinclude/rmp -I$(GEN_RMP)" include/rmp/mpi.h > $@.tmp && mv $@.tmp $@
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
$(F08_DIR)/mpi_f08_callbacks.o: $(F08_DIR)/mpi_f08_consts.o
$(F08_DIR)/mpi_f08_types.o: $(F08_DIR)/mpi_f08_callbacks.o
$(F08_DIR)/mpi_f08_procs.o: $(F08_DIR)/mpi_f08_types.o
$(F08_DIR)/mpi_f08.o: $(F08_DIR)/mpi_f08_procs.o
$(F08_DIR)/mpi_f08_bodies.o: $(F08_DIR)/mpi_f08_types.o
$(F08_DIR)/%.o: $(F08_DIR)/%.f90 mk/f08.mk
	@mkdir -p $(F08_MODDIR)
	$(RMP_FC) $(F08_FFLAGS) -J$(F08_MODDIR) -c $< -o $@

$(F08_DIR)/f08_wrap.o: $(F08_DIR)/f08_wrap.c fortran/f08/f08rt.h $(PMPI_H)
	$(CC) $(F08_CFLAGS) -c $< -o $@
$(F08_DIR)/%.o: fortran/f08/%.c fortran/f08/f08rt.h $(PMPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(F08_CFLAGS) -c $< -o $@
