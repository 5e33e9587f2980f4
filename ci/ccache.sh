# Sourced by ci/setup.sh, ci/sanitizers.sh and ci/fuzz.sh: the compiler cache their builds share.
# Sets `ccache_in_use` (1 or 0) and `ccache_launcher`, the CMake arguments that put ccache in front of the compilers (empty
# where ccache is missing or WCP_CCACHE=0), and ccache's settings:
#   CCACHE_BASEDIR=<checkout>, CCACHE_NOHASHDIR=1  paths inside the checkout are hashed relative
#     to it, so another clone of the same commit (CI's fresh clone) hits the same entries;
#   CCACHE_MAXSIZE (default 5G)  three build trees' objects (release, ASan, fuzzers) fit.
# The cache folder is ccache's own default (~/.cache/ccache) unless CCACHE_DIR names another.
ccache_launcher=()
ccache_in_use=0
if [ "${WCP_CCACHE:-1}" != "0" ] && command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
  ccache_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  ccache_in_use=1
else
  # Configured once with the launcher, a build tree keeps it unless told otherwise.
  ccache_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER= -DCMAKE_C_COMPILER_LAUNCHER=)
fi
