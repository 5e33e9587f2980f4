#pragma once
// The markup layer's Markdown writer (GitHub-flavoured: pipe tables, code spans).
#include <string>

#include "render/markup.h"

namespace wcp::render::markup {

// The title as a level-1 heading, then each block, a blank line between blocks. Figures without
// a table are left out.
std::string to_markdown(const Document& document);

}  // namespace wcp::render::markup
