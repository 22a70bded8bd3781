# Turns one stdlib .amps file into a .cpp defining amps::stdlib::embedded::NAME() with its text.
# Usage: cmake -DIN=file.amps -DOUT=file.cpp -DNAME=name -P embed.cmake
file(READ ${IN} text)
string(FIND "${text}" ")amps_src\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )amps_src\"")
endif()
file(WRITE ${OUT} "// Generated from ${IN} by stdlib/embed.cmake; do not edit.\n"
  "#include <string_view>\n"
  "namespace amps::stdlib::embedded {\n"
  "std::string_view ${NAME}() { return R\"amps_src(${text})amps_src\"; }\n"
  "}\n")
