# Sourced by the scripts: the settings Open MPI needs on a small machine or in a
# container. Harmless on a cluster; a real job script sets its own.
# Open MPI refuses to run as root unless both of these are set.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Allow more ranks than cores (tests run up to 8 ranks on 2 cores).
export OMPI_MCA_rmaps_base_oversubscribe=1
