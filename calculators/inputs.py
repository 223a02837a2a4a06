"""Validation and normalization of raw (JSON) inputs against a CalculatorSpec.

Rules (the public contract, also in README.md):
- Missing inputs, and inputs given as ``null``, take their documented default.
- ``int`` fields accept JSON integers and integral floats (8.0 -> 8);
  ``float`` fields accept any JSON number; booleans and strings are not
  numbers. ``bool`` fields accept only true/false. ``choice`` fields accept
  only one of the listed ids (case-sensitive).
- Every field error is reported, in spec order, then unknown names sorted.
- Then, when every field is valid, the checks across fields (``cross_check``), shared by
  every calculator whose spec has the inputs they read.
"""

import math
from typing import Any

from .catalog.gpus import GPU_BY_ID, GPU_IDS, precision_supported
from .catalog.models import MODEL_BY_ID
from .spec import CUSTOM_MODEL_GROUP, CalculatorSpec, Input

ERROR_CODES: tuple[str, ...] = (
    "unknown_calculator",  # field None; params {"choices": [calculator names]}
    "invalid_inputs",      # field None; inputs is not a JSON object
    "unknown_input",       # field = the unknown name; params {"choices": [input names]}
    "unknown_choice",      # params {"choices": [allowed ids]}
    "not_a_number",        # a number field got a string, bool, list, object ...
    "not_an_integer",      # an int field got a non-integral number (8.5)
    "not_a_boolean",       # a bool field got anything but true/false
    "not_finite",          # NaN or +-Infinity
    "too_small",           # params {"min": minimum (inclusive)}
    "too_large",           # params {"max": maximum (inclusive)}
    "conflicting_inputs",  # params {"with": other field name}
    "fits_no_deployment",  # field "model": no number of nodes of this GPU holds it; params {"gpu": id}
    "precision_not_supported",  # field "precision"; params {"gpu": GPU id}: no tensor cores for it (fp4)
    "context_exceeds_model",    # field "context"; params {"max": the model's context, "model": model id}
    "not_a_multiple",      # params {"of": the number it must be a multiple of} (heads of kv_heads)
    "internal_error",      # a bug: the calculator failed; params {}
)


# The smallest active share a custom MoE may declare: 1/128, the custom routing's 8 of at most 1,024
# experts (catalog.models.custom_moe). Published MoE models are far above it: DeepSeek-V3 37 of 671B
# (1/18), Kimi K2 32B of 1T (1/31), gpt-oss-120b 5.1 of 117B (1/23).
MIN_ACTIVE_SHARE = 1 / 128


def error(field: str | None, code: str, **params: Any) -> dict[str, Any]:
    """Build an error dict ``{"field", "code", "params"}``."""
    return {"field": field, "code": code, "params": params}


def _check_number(item: Input, value: Any) -> tuple[Any, dict[str, Any] | None]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None, error(item.name, "not_a_number")
    if isinstance(value, float) and not math.isfinite(value):
        return None, error(item.name, "not_finite")
    if item.type == "int" and isinstance(value, float):
        if not value.is_integer():
            return None, error(item.name, "not_an_integer")
    # Compare before converting: a huge int compares exactly with a float bound.
    if item.min is not None and value < item.min:
        return None, error(item.name, "too_small", min=item.min)
    if item.max is not None and value > item.max:
        return None, error(item.name, "too_large", max=item.max)
    return (int(value) if item.type == "int" else float(value)), None


def check_value(item: Input, value: Any) -> tuple[Any, dict[str, Any] | None]:
    """Normalize one value; returns ``(value, None)`` or ``(None, error)``."""
    if item.type == "choice":
        if isinstance(value, str) and item.choices is not None and value in item.choices:
            return value, None
        return None, error(item.name, "unknown_choice", choices=list(item.choices or ()))
    if item.type == "bool":
        if isinstance(value, bool):
            return value, None
        return None, error(item.name, "not_a_boolean")
    return _check_number(item, value)


def normalize(spec: CalculatorSpec, raw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Validate ``raw`` against ``spec``; returns (normalized inputs, errors).

    Custom-model inputs (group ``custom_model``) are validated when given but
    left out of the normalized inputs unless ``model == "custom"``.
    """
    if not isinstance(raw, dict):
        return {}, [error(None, "invalid_inputs")]
    known = {item.name for item in spec.inputs}
    values: dict[str, Any] = {}
    errors: list[dict[str, Any]] = []
    for item in spec.inputs:
        value = raw.get(item.name)
        if value is None:
            values[item.name] = item.default
            continue
        checked, problem = check_value(item, value)
        if problem is not None:
            errors.append(problem)
        else:
            values[item.name] = checked
    unknown = sorted(str(k) for k in raw if not (isinstance(k, str) and k in known))
    names = [item.name for item in spec.inputs]
    errors.extend(error(name, "unknown_input", choices=names) for name in unknown)
    if errors:
        return {}, errors
    errors = cross_check(spec, values)
    if errors:
        return {}, errors
    if values.get("model", "custom") != "custom":
        values = {
            k: v for k, v in values.items()
            if spec.input(k).group != CUSTOM_MODEL_GROUP
        }
    return values, []


def cross_check(spec: CalculatorSpec, values: dict[str, Any]) -> list[dict[str, Any]]:
    """Errors that involve several valid inputs, in spec order of the field they are reported on.

    - ``precision`` with any GPU input (a choice among the catalog's GPUs: ``gpu``, compare's
      ``sxm_gpu``): ``precision_not_supported`` naming the first GPU that cannot run it (FP4
      without FP4 tensor cores; catalog.gpus.precision_supported).
    - ``context`` with a catalog ``model``: ``context_exceeds_model`` above the model's maximum
      context (a custom model's is unknown: not checked).
    - a custom model: ``active_params_b`` above ``params_b`` is ``too_large``, below
      ``MIN_ACTIVE_SHARE`` of it (but not 0, a dense model) ``too_small``; ``heads`` that
      are not a multiple of ``kv_heads`` are ``not_a_multiple`` (grouped-query attention).
    """
    names = [item.name for item in spec.inputs]
    found: dict[str, dict[str, Any]] = {}
    precision = values.get("precision")
    if precision is not None:
        for item in spec.inputs:
            gpu_id = values.get(item.name)
            if item.type == "choice" and item.choices and set(item.choices) <= set(GPU_IDS) and gpu_id in GPU_BY_ID:
                if not precision_supported(GPU_BY_ID[gpu_id], precision):
                    found["precision"] = error("precision", "precision_not_supported", gpu=gpu_id)
                    break
    model = MODEL_BY_ID.get(values.get("model", ""))
    context = values.get("context")
    if model is not None and model.max_context and isinstance(context, int) and context > model.max_context:
        found["context"] = error("context", "context_exceeds_model", max=model.max_context, model=model.id)
    if values.get("model") == "custom":
        params, active = values.get("params_b"), values.get("active_params_b")
        if params is not None and active is not None and active > params:
            found["active_params_b"] = error("active_params_b", "too_large", max=params)
        elif params is not None and active and active < params * MIN_ACTIVE_SHARE:
            found["active_params_b"] = error("active_params_b", "too_small", min=params * MIN_ACTIVE_SHARE)
        heads, kv_heads = values.get("heads"), values.get("kv_heads")
        if heads is not None and kv_heads is not None and heads % kv_heads:
            found["heads"] = error("heads", "not_a_multiple", of=kv_heads)
    return [found[name] for name in names if name in found]


def given_custom_inputs(spec: CalculatorSpec, raw: dict[str, Any]) -> list[str]:
    """Names of custom-model inputs present (non-null) in ``raw``, in spec order."""
    return [
        item.name for item in spec.inputs
        if item.group == CUSTOM_MODEL_GROUP and raw.get(item.name) is not None
    ]
