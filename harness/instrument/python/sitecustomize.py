# Injected by warp-compile-probe into the process it measures (via PYTHONPATH): starts the
# instrumentation package beside this file (_wcp_probe/__init__.py says what it records), then
# runs the environment's own sitecustomize, which this file's name would otherwise hide.
import os as _os
import sys as _sys


def _wcp_chain_user_sitecustomize():
    # We took the name `sitecustomize`; the environment may have had its own. Load it as
    # Python would have, including Python's own behaviour when it raises.
    here = _os.path.dirname(_os.path.abspath(__file__))
    this_module = _sys.modules.get("sitecustomize")
    saved_path = list(_sys.path)
    try:
        _sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
        del _sys.modules["sitecustomize"]
        import importlib.util

        if importlib.util.find_spec("sitecustomize") is not None:
            try:
                import sitecustomize  # noqa: F401
            except Exception as error:
                print(f"Error in sitecustomize; set PYTHONVERBOSE for traceback:\n{type(error).__name__}: {error}",
                      file=_sys.stderr)
    except Exception:
        pass
    finally:
        _sys.path[:] = saved_path
        user_module = _sys.modules.get("sitecustomize")
        if user_module is None and this_module is not None:
            _sys.modules["sitecustomize"] = this_module


if __name__ == "sitecustomize":
    try:
        if _os.environ.get("WCP_EVENT_DIR"):
            import _wcp_probe

            _wcp_probe.install()
    except Exception:
        pass
    _wcp_chain_user_sitecustomize()
