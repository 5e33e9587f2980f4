#pragma once
// The names every codec reads and writes with: nlohmann's json and io/json_fields.h's field
// readers. Include it from codec .cpp files only, since it brings these names into namespace wcp.
#include <nlohmann/json.hpp>

#include "io/json_fields.h"

namespace wcp {

using json_fields::FieldError;
using json_fields::get;
using json_fields::get_optional;
using json_fields::or_null;
using nlohmann::json;

}  // namespace wcp
