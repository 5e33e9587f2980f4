# What a module's kernels referenced when it was hashed (docs/instrumentation.md: load,
# `functions` and each kernel's `constants`), so the tool can say *what* changed between two
# builds of one module whose kernels kept their names and lines.
#
# Runs in `drain`, after the load returned, never inside Warp's timer. It reads only: the
# ModuleHasher the load used (its `function_hashes`, filled when Warp hashed the module) and
# each kernel's syntax tree with plain `ast.walk`, resolving names with the kernel's own
# closure/global lookup. It calls nothing of Warp's that caches or sets state (Warp 1.19's
# Adjoint.get_references sets kernel_dim as it goes), so the program's kernels are left exactly
# as Warp left them. Everything is bounded and every failure leaves the field out.
import ast

MAX_FUNCTIONS = 128  # per load
MAX_OVERLOADS = 16  # per function
MAX_CONSTANTS = 16  # per kernel
MAX_KERNELS = 512  # per load: kernels whose constants are read
MAX_REPR = 60


def short_repr(value):
    try:
        text = repr(value)
    except Exception:
        return "?"
    return text if len(text) <= MAX_REPR else text[:MAX_REPR - 3] + "..."


def _site(func):
    code = getattr(getattr(func, "func", None), "__code__", None)
    return (code.co_filename, code.co_firstlineno) if code is not None else ("", 0)


def describe_functions(hasher, is_value=None):
    """The user functions Warp hashed for this load (transitively, from the live kernels), each
    with its content hash as Warp computed it and its overloads' signatures and sources."""
    hashes = getattr(hasher, "function_hashes", None)
    if not isinstance(hashes, dict):
        return None
    functions = []
    for func, digest in list(hashes.items())[:MAX_FUNCTIONS]:
        try:
            file, line = _site(func)
            overloads = []
            user = dict(getattr(func, "user_overloads", None) or {})
            user.update(getattr(func, "user_templates", None) or {})
            for signature, overload in list(user.items())[:MAX_OVERLOADS]:
                if getattr(overload, "generic_parent", None) is not None:
                    continue  # an instance of a generic one: not part of Warp's hash
                o_file, o_line = _site(overload)
                overloads.append({"signature": str(signature), "file": o_file, "line": o_line})
            overloads.sort(key=lambda o: o["signature"])
            module = getattr(func, "module", None)
            functions.append({"key": str(getattr(func, "key", "?")), "file": file, "line": line,
                              "module": str(getattr(module, "name", "") or ""),
                              "constants": kernel_constants(func, is_value),
                              "hash": digest.hex()[:8] if isinstance(digest, (bytes, bytearray)) else "",
                              "overloads": overloads})
        except Exception:
            pass
    functions.sort(key=lambda f: (f["key"], f["file"], f["line"]))
    return functions


def kernel_constants(kernel, is_value):
    """The values a kernel's (or function's) code names from outside it, as Warp hashes them: every name the
    code reads that no assignment in it makes local (an argument's name included, as Warp
    resolves it) and that resolves to a Warp value. None when it cannot be read."""
    adj = getattr(kernel, "adj", None)
    tree = getattr(adj, "tree", None)
    resolve = getattr(adj, "resolve_external_reference", None)
    if tree is None or resolve is None or is_value is None:
        return None
    nodes = list(ast.walk(tree))
    local = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            pending = list(node.targets)
            while pending:
                target = pending.pop()
                if isinstance(target, ast.Name):
                    local.add(target.id)
                elif isinstance(target, (ast.Tuple, ast.List)):
                    pending.extend(target.elts)
    constants = {}
    for node in nodes:
        if isinstance(node, ast.Name) and node.id not in local and node.id not in constants:
            try:
                value = resolve(node.id)
                if is_value(value):
                    constants[node.id] = short_repr(value)
            except Exception:
                continue
            if len(constants) >= MAX_CONSTANTS:
                break
    return constants


def kernel_arguments(kernel):
    adj = getattr(kernel, "adj", None)
    args = getattr(adj, "arg_types", None)
    try:
        return [str(name) for name in list(args)[:64]] if args is not None else None
    except Exception:
        return None
