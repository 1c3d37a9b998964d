# Embeds the rule doc pages (rules/docs/<id>.md) into the binary, for SARIF's
# rule help. Usage: cmake -DDIR=<rules/docs> -DOUT=<file.inc> -P EmbedRuleDocs.cmake
file(GLOB docs RELATIVE "${DIR}" "${DIR}/*.md")
list(SORT docs)
set(content "// Generated from rules/docs by cmake/EmbedRuleDocs.cmake.\n")
string(APPEND content "static const std::pair<const char *, const char *> kRuleDocs[] = {\n")
foreach(d IN LISTS docs)
  string(REGEX REPLACE "\\.md$" "" id "${d}")
  file(READ "${DIR}/${d}" body)
  string(APPEND content "  {\"${id}\", R\"coalesce_embed(${body})coalesce_embed\"},\n")
endforeach()
string(APPEND content "  {nullptr, nullptr}};\n")
file(WRITE "${OUT}.tmp" "${content}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.tmp" "${OUT}")
