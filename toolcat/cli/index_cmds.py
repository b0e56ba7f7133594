"""`toolcat index`: compute and keep a catalog's search index ahead of time."""

from __future__ import annotations

from toolcat.cli.encoding import EncodingBar
from toolcat.cli.options import CatalogOpt, JsonOpt, ShapeOpt
from toolcat.cli.search_cmds import DeviceOpt, ModelOpt, _options

# The core is imported inside the command, so `toolcat --help` stays fast.


def index(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    model: ModelOpt = None,
    device: DeviceOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Compute the catalog's search index once: BM25F and every tool's embeddings (a
    nearest-neighbour graph too for very large catalogs), kept in the cache, so that pick,
    resolve, serve and bench encode nothing but each query (serve's view too, with the
    get_prompt and get_resource tools of servers that recorded prompts or resources).

    toolcat index -c catalog.json
    """
    from toolcat.cli import build
    from toolcat.cli.output import console, print_json
    from toolcat.search.index import index_catalog
    from toolcat.serve.virtual import with_virtual_tools
    from toolcat.wording import plural

    cat = build.load(catalog, shape)
    with EncodingBar(shown=not json_, loads=True) as bar:
        done = index_catalog(cat, **_options("hybrid", model, device, bar))
        served = with_virtual_tools(cat)
        if served is not cat:  # serve searches get_prompt and get_resource with the rest
            index_catalog(served, **_options("hybrid", model, device, bar))
    if json_:
        print_json(done.to_json())
        return
    encoded = (f"{plural(done.encoded, 'text')} encoded now" if done.encoded
               else "nothing to encode (already indexed)")
    ann = f"; nearest-neighbour graph ({done.ann})" if done.ann else ""
    console.print(f"indexed {plural(done.tools, 'tool')} in {done.seconds:.1f} s: {encoded} "
                  f"with {done.model.split('@')[0]}{ann}; kept in {done.folder}")
