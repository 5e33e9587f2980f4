#include "render/results_markdown.h"

#include "render/markup_markdown.h"
#include "render/results_document.h"

namespace wcp::render {

std::string render_results_markdown(const results::ResultsReport& results) {
  return markup::to_markdown(results_document(results));
}

}  // namespace wcp::render
