#pragma once
// The markup layer's HTML writer: one self-contained page (no scripts, fonts or anything
// fetched at view time).
#include <string>

#include "render/markup.h"

namespace wcp::render::markup {

// The page around a body: head (title, style), the title as <h1>, the body, the end.
std::string html_page(const std::string& title, const std::string& style, const std::string& body);

// The document as a page: each block in order; figures as their SVG.
std::string to_html(const Document& document, const std::string& style);

}  // namespace wcp::render::markup
