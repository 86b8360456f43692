"""Checks every recorded request against Discord's limits and Discord's own OpenAPI spec.

Two independent nets: (a) hand-written limits from Discord's documentation (message, embed,
component, autocomplete, modal and command limits; allowed mentions policy; upload sizes), which
catch what the spec cannot express (total embed size, a select sharing a row, duplicate
custom ids); (b) the ``requestBody`` schema of the matching route in ``tests/data/openapi.json``,
validated as JSON Schema 2020-12 with ``$ref``s resolved through a ``referencing.Registry``.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, _keywords, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .fake_discord import COMPONENTS_V2, RecordedRequest
from .models import media_urls

SPEC_PATH = Path(__file__).resolve().parent.parent / "data" / "openapi.json"
SPEC_URI = "urn:discord:openapi"
MAX_UPLOAD_BYTES = 10 * 1024 * 1024

# Discord limits (docs: Message, Embed Limits, Component Reference, Interactions, App Commands).
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
CHOICES_MAX = 25
CHOICE_TEXT_MAX = 100
FILES_MAX = 10
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
COMMAND_TOTAL_CHARS_MAX = 4000
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")

SELECT_TYPES = (3, 5, 6, 7, 8)


# ---------------------------------------------------------------- the spec


def _patched_spec(raw: dict[str, Any]) -> dict[str, Any]:
    """The preview spec with the deviations Discord's documented behaviour requires.

    Each change below is a place where the preview spec is stricter than the API documentation
    (and than what Discord accepts in practice), so following the spec would reject payloads
    discord.py sends on every bot.
    """
    spec = copy.deepcopy(raw)
    schemas = spec["components"]["schemas"]
    # 1. Snowflakes: the spec allows only strings. The docs (Reference > Snowflakes) say IDs are
    #    *returned* as strings; Discord accepts integers in requests, and discord.py sends them as
    #    integers in ``allowed_mentions.users/roles`` and ``message_reference``.
    schemas["SnowflakeType"] = {
        "anyOf": [
            copy.deepcopy(raw["components"]["schemas"]["SnowflakeType"]),
            {"type": "integer", "minimum": 0},
        ]
    }
    # 2. ``attachments[].id``: the docs (Reference > Uploading Files) say a new upload's id is the
    #    integer index ``n`` of its ``files[n]`` part; discord.py sends ``{"id": 0, ...}``. Rule 1
    #    already admits non-negative integers, which covers it.
    # 3. ``default_member_permissions``: the docs (Application Command Object) type it as a
    #    ``?string`` bit set; the spec says integer. discord.py sends the documented string.
    for name in ("ApplicationCommandCreateRequest", "ApplicationCommandUpdateRequest"):
        props = schemas.get(name, {}).get("properties", {})
        if "default_member_permissions" in props:
            props["default_member_permissions"] = {
                "anyOf": [
                    props["default_member_permissions"],
                    {"type": "string", "pattern": "^[0-9]+$"},
                ]
            }
    # 4. A role's ``permissions``: the docs (Guild > Create Guild Role, JSON Params) type it as a
    #    ``string`` bit set; the spec says integer. discord.py sends the documented string.
    for name in ("CreateRoleRequest", "UpdateRoleRequestPartial"):
        props = schemas.get(name, {}).get("properties", {})
        if "permissions" in props:
            props["permissions"] = {
                "anyOf": [props["permissions"], {"type": "string", "pattern": "^[0-9]+$"}]
            }
    return spec


@functools.cache
def _spec() -> dict[str, Any]:
    return _patched_spec(json.loads(SPEC_PATH.read_text()))


@functools.cache
def _registry() -> Registry:
    resource = Resource.from_contents(_spec(), default_specification=DRAFT202012)
    return Registry().with_resource(SPEC_URI, resource)


#: ``(reference, canonical JSON of an instance)`` pairs found valid: a run sends the same
#: command tree, buttons and embeds many times, and validating them again (the spec's unions
#: try every branch) was most of a Discord test's time. Only a success is remembered, so an
#: invalid body is validated, and described, as before.
_VALID_UNDER: set[tuple[str, str]] = set()


def _remembered_ref(
    validator: Any, ref: str, instance: Any, schema: Mapping[str, Any]
) -> Iterable[ValidationError]:
    """JSON Schema's ``$ref``, skipped for an instance already found valid under ``ref`` (the
    spec is one document, so a reference names one schema wherever it appears)."""
    try:
        key = (ref, json.dumps(instance, sort_keys=True))
    except (TypeError, ValueError):
        yield from validator._validate_reference(ref=ref, instance=instance)
        return
    if key in _VALID_UNDER:
        return
    failed = False
    for error in validator._validate_reference(ref=ref, instance=instance):
        failed = True
        yield error
    if not failed:
        _VALID_UNDER.add(key)


def _first_valid(validator: Any, branches: list[Any], instance: Any) -> int | None:
    """The index of the first of ``branches`` that ``instance`` is valid under, each branch
    left at its first error (a union's failed branches were described in full, then thrown
    away whenever another branch matched)."""
    for index, branch in enumerate(branches):
        if next(iter(validator.descend(instance, branch, schema_path=index)), None) is None:
            return index
    return None


def _quick_any_of(
    validator: Any, any_of: list[Any], instance: Any, schema: Mapping[str, Any]
) -> Iterable[ValidationError]:
    """JSON Schema's ``anyOf``; its errors, described as before, only when no branch fits."""
    if _first_valid(validator, any_of, instance) is None:
        yield from _keywords.anyOf(validator, any_of, instance, schema)


def _quick_one_of(
    validator: Any, one_of: list[Any], instance: Any, schema: Mapping[str, Any]
) -> Iterable[ValidationError]:
    """JSON Schema's ``oneOf``, its errors described as before; a fitting branch is found
    without describing the failures of the branches before it."""
    first = _first_valid(validator, one_of, instance)
    if first is None:
        yield from _keywords.oneOf(validator, one_of, instance, schema)
        return
    more_valid = [
        each for each in one_of[first + 1 :] if validator.evolve(schema=each).is_valid(instance)
    ]
    if more_valid:
        more_valid.append(one_of[first])
        reprs = ", ".join(repr(each) for each in more_valid)
        yield ValidationError(f"{instance!r} is valid under each of {reprs}")


_RememberingValidator = validators.extend(
    Draft202012Validator,
    {"$ref": _remembered_ref, "anyOf": _quick_any_of, "oneOf": _quick_one_of},
)


@functools.cache
def _validator(pointer: str) -> Draft202012Validator:
    validator: Draft202012Validator = _RememberingValidator(
        {"$ref": f"{SPEC_URI}#{pointer}"}, registry=_registry()
    )
    return validator


def response_validator(schema_name: str) -> Draft202012Validator:
    """A validator for one of the spec's component schemas, e.g. ``MessageResponse``.

    Used to check that the fake's own answers look like Discord's.
    """
    return _validator(f"/components/schemas/{schema_name}")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@functools.cache
def _templates() -> list[tuple[re.Pattern[str], str, int]]:
    """Spec path templates as regexes, with their count of literal segments for tie-breaking."""
    out = []
    for template in _spec()["paths"]:
        parts = template.strip("/").split("/")
        regex = "/".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
        literal = sum(1 for p in parts if not p.startswith("{"))
        out.append((re.compile(f"^/{regex}$"), template, literal))
    return out


@functools.lru_cache(maxsize=4096)
def spec_template(path: str) -> str | None:
    """The spec's path template for a concrete path (``@original`` beats ``{message_id}``);
    remembered, as every request is matched against all of the spec's paths."""
    matches = [(literal, t) for regex, t, literal in _templates() if regex.match(path)]
    return max(matches)[1] if matches else None


def _resolve(node: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        target: Any = _spec()
        for token in ref[2:].split("/"):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _schema_pointer(method: str, template: str, content_type: str) -> str | None:
    operation = _spec()["paths"][template].get(method.lower())
    if not operation or "requestBody" not in operation:
        return None
    content = operation["requestBody"]["content"]
    if content_type not in content:
        content_type = next(iter(content))
    return (
        f"/paths/{_escape(template)}/{method.lower()}/requestBody/content/"
        f"{_escape(content_type)}/schema"
    )


def _discriminated(pointer: str, body: Any) -> str:
    """For a union of typed bodies (interaction callbacks), the branch matching ``body.type``.

    Validating against the one branch gives a readable error instead of "not valid under any of
    the given schemas".
    """
    node: Any = _spec()
    for token in pointer.strip("/").split("/"):
        node = node[token.replace("~1", "/").replace("~0", "~")]
    branches = node.get("anyOf") or node.get("oneOf")
    if not branches or not isinstance(body, dict) or "type" not in body:
        return pointer
    for branch in branches:
        if "$ref" not in branch:
            continue
        enum = _resolve(branch).get("properties", {}).get("type", {}).get("enum")
        if enum and body["type"] in enum:
            return branch["$ref"][1:]
    return pointer


def _leaves(error: ValidationError) -> list[ValidationError]:
    if not error.context:
        return [error]
    return [leaf for child in error.context for leaf in _leaves(child)]


def _most_specific(error: ValidationError) -> ValidationError:
    """Inside ``anyOf``/``oneOf``, follow the branch that came closest to matching.

    The closest branch is the one with the fewest failures (ties: the deepest failure); the
    ``null`` alternative every optional field carries is never what was meant.
    """
    if not error.context:
        return error
    branches: dict[Any, list[ValidationError]] = {}
    for child in error.context:
        key = child.relative_schema_path[0] if child.relative_schema_path else None
        branches.setdefault(key, []).append(child)
    candidates = [
        group
        for group in branches.values()
        if not all("is not of type 'null'" in c.message for c in group)
    ]
    if not candidates:
        return error
    closest = min(
        candidates,
        key=lambda g: (
            sum(len(_leaves(c)) for c in g),
            -max(len(c.absolute_path) for c in g),
        ),
    )
    return _most_specific(max(closest, key=lambda c: len(c.absolute_path)))


def _describe(error: ValidationError) -> str:
    """The most specific reason, not "is not valid under any of the given schemas"."""
    best = _most_specific(error)
    return f"{best.json_path}: {best.message[:300]}"


def spec_issues(method: str, path: str, body: Any, *, multipart: bool = False) -> list[str]:
    """Problems with ``body`` according to the OpenAPI requestBody schema of its route."""
    template = spec_template(path)
    if template is None:
        return [f"route {method} {path} is not in Discord's OpenAPI spec"]
    if method.lower() not in _spec()["paths"][template]:
        return [f"{method} is not an operation of {template} in Discord's OpenAPI spec"]
    content_type = "multipart/form-data" if multipart else "application/json"
    pointer = _schema_pointer(method, template, content_type)
    if pointer is None:
        if body not in (None, {}, b"", ""):
            return [f"{method} {template} takes no request body, but one was sent"]
        return []
    pointer = _discriminated(pointer, body)
    validator = _validator(pointer)
    return [_describe(e) for e in validator.iter_errors(body)]


# ---------------------------------------------------------------- Discord's limits


def _embed_issues(embeds: list[Mapping[str, Any]]) -> list[str]:
    issues: list[str] = []
    if len(embeds) > EMBEDS_MAX:
        issues.append(f"{len(embeds)} embeds (max {EMBEDS_MAX})")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        fields = embed.get("fields") or []
        for label, text, limit in (
            ("title", title, EMBED_TITLE_MAX),
            ("description", description, EMBED_DESCRIPTION_MAX),
            ("footer.text", footer, EMBED_FOOTER_MAX),
            ("author.name", author, EMBED_AUTHOR_MAX),
        ):
            if len(text) > limit:
                issues.append(f"{where}.{label} is {len(text)} chars (max {limit})")
        if len(fields) > EMBED_FIELDS_MAX:
            issues.append(f"{where} has {len(fields)} fields (max {EMBED_FIELDS_MAX})")
        for j, field in enumerate(fields):
            name, value = str(field.get("name") or ""), str(field.get("value") or "")
            if not name.strip() or not value.strip():
                issues.append(f"{where}.fields[{j}] has an empty name or value (Discord rejects)")
            if len(name) > EMBED_FIELD_NAME_MAX:
                issues.append(f"{where}.fields[{j}].name is {len(name)} chars")
            if len(value) > EMBED_FIELD_VALUE_MAX:
                issues.append(f"{where}.fields[{j}].value is {len(value)} chars (max 1024)")
            total += len(name) + len(value)
        total += len(title) + len(description) + len(footer) + len(author)
    if total > EMBED_TOTAL_MAX:
        issues.append(f"embeds total {total} chars (max {EMBED_TOTAL_MAX})")
    return issues


def _interactive_issues(item: Mapping[str, Any], where: str, seen: set[str]) -> list[str]:
    issues: list[str] = []
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if len(custom_id) > CUSTOM_ID_MAX:
            issues.append(f"{where}.custom_id is {len(custom_id)} chars (max {CUSTOM_ID_MAX})")
        if custom_id in seen:
            issues.append(f"{where}.custom_id {custom_id!r} is used twice in one message")
        seen.add(custom_id)
    if item.get("type") == 2:
        style = item.get("style")
        label = item.get("label") or ""
        if len(label) > BUTTON_LABEL_MAX:
            issues.append(f"{where}.label is {len(label)} chars (max {BUTTON_LABEL_MAX})")
        if not label and not item.get("emoji"):
            issues.append(f"{where}: a button needs a label or an emoji")
        if style == 5 and (not item.get("url") or custom_id):
            issues.append(f"{where}: a link button needs a url and no custom_id")
        if style in (1, 2, 3, 4) and not custom_id:
            issues.append(f"{where}: a non-link button needs a custom_id")
    elif item.get("type") in SELECT_TYPES:
        if not custom_id:
            issues.append(f"{where}: a select needs a custom_id")
        placeholder = item.get("placeholder") or ""
        if len(placeholder) > PLACEHOLDER_MAX:
            issues.append(f"{where}.placeholder is {len(placeholder)} chars")
        options = item.get("options") or []
        if item.get("type") == 3:
            if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                issues.append(f"{where} has {len(options)} options (1 to {SELECT_OPTIONS_MAX})")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                issues.append(f"{where} has duplicate option values")
            for k, option in enumerate(options):
                for key in ("label", "value", "description"):
                    text = option.get(key) or ""
                    if len(text) > OPTION_TEXT_MAX:
                        issues.append(f"{where}.options[{k}].{key} is {len(text)} chars (max 100)")
                if not option.get("label") or not option.get("value"):
                    issues.append(f"{where}.options[{k}] needs a label and a value")
        low = item.get("min_values", 1)
        high = item.get("max_values", 1)
        if low is not None and high is not None and low > high:
            issues.append(f"{where}: min_values {low} > max_values {high}")
        if item.get("type") == 3 and high is not None and high > len(options):
            issues.append(f"{where}: max_values {high} > {len(options)} options")
    return issues


def _component_issues(components: list[Mapping[str, Any]], flags: int) -> list[str]:
    issues: list[str] = []
    seen: set[str] = set()
    if flags & COMPONENTS_V2:
        count = 0
        text = 0

        def walk(items: Iterable[Mapping[str, Any]], where: str) -> None:
            nonlocal count, text
            for i, item in enumerate(items):
                count += 1
                here = f"{where}[{i}]"
                if item.get("type") == 10:
                    text += len(item.get("content") or "")
                issues.extend(_interactive_issues(item, here, seen))
                if item.get("components"):
                    walk(item["components"], here + ".components")
                if item.get("accessory"):
                    walk([item["accessory"]], here + ".accessory")

        walk(components, "components")
        if count > V2_COMPONENTS_MAX:
            issues.append(f"{count} components (max {V2_COMPONENTS_MAX} with components v2)")
        if text > V2_TEXT_MAX:
            issues.append(f"text displays total {text} chars (max {V2_TEXT_MAX})")
        return issues
    if len(components) > ACTION_ROWS_MAX:
        issues.append(f"{len(components)} action rows (max {ACTION_ROWS_MAX})")
    for i, row in enumerate(components):
        where = f"components[{i}]"
        if row.get("type") != 1:
            issues.append(f"{where} is type {row.get('type')}; top level must be action rows")
            continue
        children = row.get("components") or []
        if not children:
            issues.append(f"{where} is an empty action row")
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if len(buttons) > ROW_BUTTONS_MAX:
            issues.append(f"{where} has {len(buttons)} buttons (max {ROW_BUTTONS_MAX})")
        if selects and len(children) > 1:
            issues.append(f"{where}: a select menu must be alone in its action row")
        for j, child in enumerate(children):
            issues.extend(_interactive_issues(child, f"{where}.components[{j}]", seen))
    return issues


def _mention_issues(body: Mapping[str, Any]) -> list[str]:
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return ["allowed_mentions missing: a message must say it pings users only"]
    issues = []
    parse = allowed.get("parse") or []
    for kind in ("everyone", "roles"):
        if kind in parse:
            issues.append(f"allowed_mentions.parse allows {kind!r}")
    if allowed.get("roles"):
        issues.append("allowed_mentions.roles lists roles")
    return issues


def _v2_media_issues(body: Mapping[str, Any]) -> list[str]:
    """Every media URL of a components-v2 message is an attachment or a web address."""
    if not int(body.get("flags") or 0) & COMPONENTS_V2:
        return []
    return [
        f"media URL {url[:80]!r} is neither attachment://<file> nor http(s)"
        for url in media_urls(body.get("components") or [])
        if not url.startswith(("attachment://", "https://", "http://"))
    ]


def _embedded_file_issues(body: Mapping[str, Any], filenames: set[str] | None) -> list[str]:
    """An image that points at no attached file shows nothing; with components v2 an attached
    file no media component shows is not shown at all (Discord shows attachments only through
    media components), so a picture sent is a picture lost."""
    if filenames is None:
        return []
    issues = []
    for i, embed in enumerate(body.get("embeds") or []):
        for key in ("image", "thumbnail"):
            url = str((embed.get(key) or {}).get("url") or "")
            if url.startswith("attachment://") and url[len("attachment://") :] not in filenames:
                issues.append(f"embeds[{i}].{key} points at {url} but no such file is attached")
    if int(body.get("flags") or 0) & COMPONENTS_V2 and "components" in body:
        shown = {
            url[len("attachment://") :]
            for url in media_urls(body.get("components") or [])
            if url.startswith("attachment://")
        }
        issues += [
            f"media points at attachment://{name} but no such file is attached"
            for name in sorted(shown - filenames)
        ]
        issues += [
            f"{name} is attached but no media component shows it"
            for name in sorted(filenames - shown)
        ]
    return issues


def message_issues(body: Mapping[str, Any], files: Iterable[Any] = ()) -> list[str]:
    """Limits Discord enforces (it answers 400) on any message-bearing body."""
    issues: list[str] = []
    content = body.get("content")
    if content is not None and len(content) > CONTENT_MAX:
        issues.append(f"content is {len(content)} chars (max {CONTENT_MAX})")
    flags = int(body.get("flags") or 0)
    if flags & COMPONENTS_V2 and (body.get("content") or body.get("embeds")):
        issues.append("components v2 messages cannot carry content or embeds")
    issues += _v2_media_issues(body)
    issues += _embed_issues(list(body.get("embeds") or []))
    issues += _component_issues(list(body.get("components") or []), flags)
    files = list(files)
    if len(files) > FILES_MAX:
        issues.append(f"{len(files)} files (max {FILES_MAX})")
    for upload in files:
        if len(upload.data) >= MAX_UPLOAD_BYTES:
            issues.append(f"file {upload.filename} is {len(upload.data)} bytes (limit 10 MiB)")
    return issues


def message_policy_issues(
    body: Mapping[str, Any], attached_filenames: set[str] | None = None
) -> list[str]:
    """Rules Discord would not reject but our design requires: users-only pings, no dead images."""
    return _mention_issues(body) + _embedded_file_issues(body, attached_filenames)


def autocomplete_issues(data: Mapping[str, Any]) -> list[str]:
    choices = data.get("choices") or []
    issues = []
    if len(choices) > CHOICES_MAX:
        issues.append(f"{len(choices)} autocomplete choices (max {CHOICES_MAX})")
    for i, choice in enumerate(choices):
        name = str(choice.get("name", ""))
        if not 1 <= len(name) <= CHOICE_TEXT_MAX:
            issues.append(f"choices[{i}].name is {len(name)} chars (1 to {CHOICE_TEXT_MAX})")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_TEXT_MAX:
            issues.append(f"choices[{i}].value is {len(value)} chars (max {CHOICE_TEXT_MAX})")
    return issues


def modal_issues(data: Mapping[str, Any]) -> list[str]:
    issues = []
    title = data.get("title") or ""
    if not 1 <= len(title) <= MODAL_TITLE_MAX:
        issues.append(f"modal title is {len(title)} chars (1 to {MODAL_TITLE_MAX})")
    if len(data.get("custom_id") or "") > CUSTOM_ID_MAX:
        issues.append("modal custom_id over 100 chars")
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        issues.append(f"modal has {len(components)} components (1 to {MODAL_COMPONENTS_MAX})")
    for i, item in enumerate(components):
        label = item.get("label") or ""
        if item.get("type") == 18 and len(label) > TEXT_INPUT_LABEL_MAX:
            issues.append(f"modal components[{i}].label is {len(label)} chars (max 45)")
        inner = item.get("components") or ([item["component"]] if item.get("component") else [])
        for child in inner:
            if child.get("type") == 4 and len(child.get("label") or "") > TEXT_INPUT_LABEL_MAX:
                issues.append(f"modal text input {child.get('custom_id')!r} label over 45 chars")
            if len(child.get("custom_id") or "") > CUSTOM_ID_MAX:
                issues.append(f"modal input {child.get('custom_id')!r} custom_id over 100 chars")
    return issues


def _longest(node: Mapping[str, Any], field: str) -> int:
    """A field's length as Discord counts it: its longest localization, the default included."""
    texts = [str(node.get(field) or ""), *(node.get(f"{field}_localizations") or {}).values()]
    return max(len(text) for text in texts)


def _command_chars(node: Mapping[str, Any]) -> int:
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(_command_chars(o) for o in node.get("options") or [])


def command_issues(commands: list[Mapping[str, Any]]) -> list[str]:
    """App command rules beyond the schema: lowercase names, required-first, 4000 chars total."""
    issues = []

    def walk(node: Mapping[str, Any], where: str) -> None:
        name = node.get("name") or ""
        if node.get("type", 1) in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) and (
            not COMMAND_NAME.match(name) or name != name.lower()
        ):
            issues.append(f"{where}: name {name!r} must be 1-32 lowercase word characters")
        options = node.get("options") or []
        seen_optional = False
        for option in options:
            if option.get("type") in (1, 2):
                continue
            if not option.get("required"):
                seen_optional = True
            elif seen_optional:
                issues.append(f"{where}: required option {option['name']!r} after optional ones")
            if option.get("autocomplete") and option.get("choices"):
                issues.append(f"{where}.{option['name']}: autocomplete and choices both set")
        for option in options:
            walk(option, f"{where}.{option.get('name')}")

    for command in commands:
        if command.get("type", 1) != 1:
            continue
        walk(command, f"/{command.get('name')}")
        chars = _command_chars(command)
        if chars > COMMAND_TOTAL_CHARS_MAX:
            issues.append(f"/{command.get('name')} has {chars} chars in names/descriptions (4000)")
    return issues


# ---------------------------------------------------------------- one request


_MESSAGE_ROUTES = (
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
)
CALLBACK_ROUTE = "/interactions/{interaction_id}/{interaction_token}/callback"
_COMMAND_ROUTES = (
    "/applications/{application_id}/commands",
    "/applications/{application_id}/guilds/{guild_id}/commands",
)


def _message_body(request: RecordedRequest) -> Mapping[str, Any] | None:
    """The message part of a request, if it carries one (a create, an edit or a response)."""
    body = request.json
    if not isinstance(body, dict):
        return None
    template = spec_template(request.path)
    if (request.method, template) in _MESSAGE_ROUTES:
        return body
    if template == CALLBACK_ROUTE and body.get("type") in (4, 7):
        return body.get("data") or {}
    return None


def limit_issues(request: RecordedRequest) -> list[str]:
    """Discord-limit problems of one recorded request: Discord answers these with a 400."""
    body = request.json
    message = _message_body(request)
    if message is not None:
        return message_issues(message, request.files)
    template = spec_template(request.path)
    if template == CALLBACK_ROUTE and isinstance(body, dict):
        if body.get("type") == 8:
            return autocomplete_issues(body.get("data") or {})
        if body.get("type") == 9:
            return modal_issues(body.get("data") or {})
    if request.method == "PUT" and template in _COMMAND_ROUTES and isinstance(body, list):
        return command_issues(body)
    return []


def hard_issues(request: RecordedRequest) -> list[str]:
    """What Discord itself would reject: limits plus the OpenAPI requestBody schema."""
    issues = limit_issues(request)
    if request.method in ("POST", "PUT", "PATCH"):
        issues += spec_issues(
            request.method, request.path, request.json, multipart=request.multipart
        )
    return issues


def policy_issues(request: RecordedRequest, attached: set[str] | None = None) -> list[str]:
    """What our design forbids although Discord accepts it (docs/architecture.md, "The
    Discord layer")."""
    issues = []
    if not request.handled:
        issues.append("the fake Discord has no route for this request (answered 404)")
    message = _message_body(request)
    if message is not None and any(
        key in message for key in ("content", "embeds", "components", "attachments")
    ):
        issues += message_policy_issues(message, attached)
    return issues


def report(problems: list[tuple[RecordedRequest | None, str]]) -> str:
    """One readable block per request, with a short view of the offending body."""
    lines = [f"{len(problems)} problem(s) with what the bot sent to Discord:"]
    for request, issue in problems:
        if request is None:
            lines.append(f"  - {issue}")
            continue
        body = json.dumps(request.json)[:300] if request.json is not None else ""
        lines.append(f"  - {request}: {issue}\n      body: {body}")
    return "\n".join(lines)
