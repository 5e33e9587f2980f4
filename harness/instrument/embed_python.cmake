file(READ ${INPUT} content)
file(WRITE ${OUTPUT} "#pragma once\n// Generated from harness/instrument/python/sitecustomize.py; do not edit.\nnamespace wcp::instrument {\ninline constexpr const char* kSitecustomizeSource = R\"WCP_PY(${content})WCP_PY\";\n}\n")
