# Embeds the built-in CUDA headers into the binary as string literals.
# Usage: cmake -DDIR=<include dir> -DOUT=<file.inc> -P EmbedHeaders.cmake
file(GLOB headers RELATIVE "${DIR}" "${DIR}/*.h")
list(SORT headers)
set(content "// Generated from analyzer/driver/builtin/include by cmake/EmbedHeaders.cmake.\n")
string(APPEND content "static const std::pair<const char *, const char *> kBuiltinHeaders[] = {\n")
foreach(h IN LISTS headers)
  file(READ "${DIR}/${h}" body)
  string(APPEND content "  {\"${h}\", R\"coalesce_embed(${body})coalesce_embed\"},\n")
endforeach()
string(APPEND content "};\n")
file(WRITE "${OUT}.tmp" "${content}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.tmp" "${OUT}")
