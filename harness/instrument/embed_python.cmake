# Writes a C++ header holding the instrumentation's Python files (the bootstrap sitecustomize.py
# and the _wcp_probe package), so the tool stays one binary. Run by harness/CMakeLists.txt with
# -DROOT=<the python folder> -DFILES=<paths relative to it, ';'-separated> -DOUTPUT=<header>.
set(entries "")
foreach(relative ${FILES})
  file(READ ${ROOT}/${relative} content)
  string(FIND "${content}" ")WCP_PY\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${relative} contains the raw-string delimiter )WCP_PY\"")
  endif()
  string(APPEND entries "    {\"${relative}\", R\"WCP_PY(${content})WCP_PY\"},\n")
endforeach()
file(WRITE ${OUTPUT} "#pragma once
// Generated from harness/instrument/python by embed_python.cmake; do not edit.
namespace wcp::instrument {
struct EmbeddedFile {
  const char* path;  // relative to the folder put first on PYTHONPATH
  const char* source;
};
inline constexpr EmbeddedFile kInstrumentationFiles[] = {
${entries}};
}  // namespace wcp::instrument
")
