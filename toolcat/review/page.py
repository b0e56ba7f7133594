"""The review as one self-contained HTML page: no network, no external file, inline CSS and
JavaScript only. The list of requests is written as HTML (readable without JavaScript); the
selected request's prompt, tools, trace and changes are drawn by the page's script from the
JSON data block, with `textContent` only.

Everything from the catalog or the query file is text to the page: the list is escaped with
html.escape, the data block has every `<`, `>` and `&` as a JSON escape (no `</script>` can end
it), and the Content-Security-Policy lets only the page's own script run (by its hash) and
fetch nothing, so even a missed escape could not run a tool description's `<script>`.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Sequence
from typing import Any

from toolcat.review.compare import RequestChange
from toolcat.review.record import Record
from toolcat.review.summary import redefined_lines

PAGE_PROMPT = 20_000  # characters of a prompt on the page; the file has all of it

STYLE = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;
background:#f6f8fa;display:flex;height:100vh}
#side{width:34%;min-width:260px;max-width:480px;border-right:1px solid #d0d7de;
display:flex;flex-direction:column;background:#fff}
#side header{padding:12px;border-bottom:1px solid #d0d7de}
#side h1{font-size:16px;margin:0 0 4px}
#side .sub{color:#57606a;font-size:12px}
#filter{width:100%;margin-top:8px;padding:6px 8px;border:1px solid #d0d7de;border-radius:6px}
#list{list-style:none;margin:0;padding:0;overflow:auto;flex:1}
#list li{border-bottom:1px solid #eaeef2}
#list a{display:block;padding:8px 12px;color:inherit;text-decoration:none}
#list a:hover{background:#f3f4f6}
#list li.sel a{background:#ddf4ff}
#list .id{font-weight:600}
#list .q{color:#57606a;display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#list .meta{font-size:12px;color:#57606a}
.badge{display:inline-block;font-size:11px;font-weight:600;padding:0 6px;border-radius:10px;
margin-left:6px}
.b-changed{background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c}
.b-new{background:#ddf4ff;color:#0969da;border:1px solid #54aeff}
li.changed{border-left:4px solid #d4a72c}li.new{border-left:4px solid #54aeff}
main{flex:1;overflow:auto;padding:16px 24px}
main h2{margin:0 0 4px;font-size:18px}
main h3{font-size:14px;margin:20px 0 6px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.query{font-size:15px;margin:4px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.n{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#fff;border:1px solid #d0d7de;padding:10px;overflow:auto;white-space:pre-wrap;
word-break:break-word;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:60vh}
.chg{background:#fffbe6;border:1px solid #d4a72c;border-radius:6px;padding:8px 12px}
.chg li{margin:2px 0}.plus{color:#1a7f37;font-weight:600}.minus{color:#cf222e;font-weight:600}
.muted{color:#57606a}
del{background:#ffebe9;color:#82071e}ins{background:#dafbe1;color:#116329;text-decoration:none}
"""

SCRIPT = """
(function(){
var data=JSON.parse(document.getElementById('data').textContent);
var main=document.getElementById('detail');
function el(tag,text,cls){var e=document.createElement(tag);
 if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e;}
function table(head,rows,numeric){var t=el('table'),tr=el('tr');
 head.forEach(function(h){tr.appendChild(el('th',h));});t.appendChild(tr);
 rows.forEach(function(r){var row=el('tr');r.forEach(function(c,i){
  row.appendChild(el('td',c===null?'':typeof c==='number'?fmt(c):c,
   numeric.indexOf(i)>=0?'n':''));});t.appendChild(row);});
 return t;}
function diffed(text){var e=el('li'),re=/\\[-([\\s\\S]*?)-\\]|\\{\\+([\\s\\S]*?)\\+\\}/g,at=0,m;
 while((m=re.exec(text))!==null){e.appendChild(document.createTextNode(text.slice(at,m.index)));
  e.appendChild(m[1]!==undefined?el('del',m[1]):el('ins',m[2]));at=re.lastIndex;}
 e.appendChild(document.createTextNode(text.slice(at)));return e;}
function fmt(n){return Number(n).toLocaleString('en-US');}
function show(i){
 var r=data.requests[i];if(!r)return;
 var sel=document.querySelector('#list li.sel');if(sel)sel.classList.remove('sel');
 var li=document.getElementById('r'+i);if(li)li.classList.add('sel');
 main.textContent='';
 main.appendChild(el('h2',r.id+' \\u00b7 '+r.profile));
 main.appendChild(el('div',r.query,'query'));
 main.appendChild(el('div','format '+r.format+' \\u2014 '+r.format_reason+'; cap '+r.cap+
  '; scorer '+r.scorer+(r.embedding_model?' (model '+r.embedding_model+')':'')+
  '; files in '+r.folder+'/','muted'));
 if(r.change&&r.change.kind!=='same'){
  var box=el('div',null,'chg');box.appendChild(el('strong',r.change.kind==='new'?
   'New request: not in the baseline':'Changed against '+data.baseline));
  var ul=el('ul');
  r.change.joined.forEach(function(m){var li=el('li');
   li.appendChild(el('span','+ '+m[0],'plus'));
   li.appendChild(el('span',' joined ['+m[1]+'] '+m[2]+' (before: '+m[3]+')'));
   ul.appendChild(li);});
  r.change.left.forEach(function(m){var li=el('li');
   li.appendChild(el('span','\\u2212 '+m[0],'minus'));
   li.appendChild(el('span',' left (was ['+m[1]+'] '+m[2]+'; now: '+m[3]+')'));
   ul.appendChild(li);});
  r.change.redefined.forEach(function(d){var li=el('li','definition of '+d[0]+':');
   var inner=el('ul');d[1].forEach(function(line){inner.appendChild(diffed(line));});
   li.appendChild(inner);ul.appendChild(li);});
  r.change.tokens.forEach(function(d){var delta=d[2]-d[1];
   ul.appendChild(el('li','tokens ('+d[0]+'): '+fmt(d[1])+' \\u2192 '+fmt(d[2])+' ('+
    (delta>=0?'+':'')+fmt(delta)+')'));});
  if(r.change.prompt)ul.appendChild(el('li','the system prompt changed'));
  r.change.payloads.forEach(function(p){ul.appendChild(el('li','the '+p+' payload changed'));});
  box.appendChild(ul);main.appendChild(box);}
 main.appendChild(el('h3','Tokens'));
 main.appendChild(table(['target','system','tools','overhead','total','method'],r.costs,[1,2,3,4]));
 main.appendChild(el('h3','Visible ('+r.visible.length+')'));
 main.appendChild(table(['name','tool','rule','reason','score','tokens'],r.visible,[4,5]));
 main.appendChild(el('h3','Deferred and excluded'));
 main.appendChild(table(['status','rule','via','tools','tokens','first of them'],
  r.groups.map(function(g){return [g[0],g[1],g[2],fmt(g[3]),fmt(g[4]),g[5].join(', ')+
   (g[3]>g[5].length?', \\u2026':'')];}),[3,4]));
 if(r.notes.length){main.appendChild(el('h3','Notes'));var nl=el('ul');
  r.notes.forEach(function(n){nl.appendChild(el('li',n));});main.appendChild(nl);}
 main.appendChild(el('h3','System prompt'));main.appendChild(el('pre',r.prompt));
 main.appendChild(el('h3','Decision trace'));main.appendChild(el('pre',r.trace));
}
function route(){var m=/^#r(\\d+)$/.exec(location.hash);show(m?Number(m[1]):0);}
window.addEventListener('hashchange',route);
var filter=document.getElementById('filter');
filter.addEventListener('input',function(){var q=filter.value.toLowerCase();
 var items=document.querySelectorAll('#list li');
 for(var i=0;i<items.length;i++){items[i].style.display=
  items[i].getAttribute('data-text').indexOf(q)>=0?'':'none';}});
route();
})();
"""


def page_html(entries: Sequence[tuple[Record, RequestChange | None]],
              baseline: str | None) -> str:
    """The page: requests most affected first when there is a baseline, else in file order."""
    ordered = list(entries)
    if baseline is not None:
        ordered.sort(key=lambda e: tuple(-x for x in e[1].affected) if e[1] else ())
    data = {"baseline": baseline, "requests": [_request(r, c) for r, c in ordered]}
    block = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    block = block.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    changed = sum(1 for _, c in ordered if c is not None and c.kind == "changed")
    new = sum(1 for _, c in ordered if c is not None and c.kind == "new")
    sub = f"{len(ordered):,} requests" + (
        f" · {changed:,} changed{f', {new:,} new' if new else ''} against {baseline}"
        if baseline is not None else "")
    items = "\n".join(_item(i, r, c) for i, (r, c) in enumerate(ordered))
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolcat review</title>
<style>{STYLE}</style>
</head>
<body>
<nav id="side">
<header><h1>toolcat review</h1><div class="sub" id="summary">{html.escape(sub)}</div>
<input id="filter" type="search" placeholder="Filter requests" aria-label="Filter requests">
</header>
<ul id="list">
{items}
</ul>
</nav>
<main id="detail"><p class="muted">Select a request.</p></main>
<script type="application/json" id="data">{block}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


def _item(index: int, record: Record, change: RequestChange | None) -> str:
    kind = change.kind if change is not None else "same"
    badge = ""
    if kind == "changed" and change is not None:
        moved = len(change.joined) + len(change.left)
        bits = [f"{moved} moved"] if moved else []
        bits += [f"{len(change.redefined)} redefined"] if change.redefined else []
        bits += [f"{d.new - d.old:+,} tokens" for d in change.tokens[:1]]
        if not bits:  # nothing moved or redefined: say which view changed
            bits = ["prompt" if change.prompt else "payload" if change.payloads else "trace"]
        badge = f'<span class="badge b-changed">changed{": " if bits else ""}' \
                f'{html.escape(", ".join(bits))}</span>'
    elif kind == "new":
        badge = '<span class="badge b-new">new</span>'
    text = f"{record.request.id} {record.request.text} {record.profile}".lower()
    cls = f' class="{kind}"' if kind != "same" else ""
    return (f'<li id="r{index}"{cls} data-text="{html.escape(text)}"><a href="#r{index}">'
            f'<span class="id">{html.escape(record.request.id)}</span>{badge}'
            f'<span class="q">{html.escape(record.request.text)}</span>'
            f'<span class="meta">{html.escape(record.profile)} · {len(record.visible)} visible'
            f' · {record.total:,} tokens</span></a></li>')


def _request(record: Record, change: RequestChange | None) -> dict[str, Any]:
    prompt = record.prompt
    if len(prompt) > PAGE_PROMPT:
        prompt = (prompt[:PAGE_PROMPT] + f"\n\n… {len(record.prompt) - PAGE_PROMPT:,} more "
                  f"characters in {record.folder}/prompt.md")
    out: dict[str, Any] = {
        "id": record.request.id, "query": record.request.text, "profile": record.profile,
        "folder": record.folder, "format": record.format, "format_reason": record.format_reason,
        "cap": record.cap, "scorer": record.scorer,
        "embedding_model": record.embedding_model,
        "costs": [[c.target, c.system, c.tools, c.overhead, c.total, c.method]
                  for c in record.costs],
        "visible": [[p.name, p.tool, p.rule, p.reason, p.score, p.tokens]
                    for p in record.visible],
        "groups": [[g.status, g.rule, g.via, g.count, g.tokens, list(g.tools)]
                   for g in record.groups],
        "notes": list(record.notes), "prompt": prompt, "trace": record.trace, "change": None,
    }
    if change is not None:
        out["change"] = {
            "kind": change.kind,
            "joined": [[m.name, m.rule, m.reason, m.other] for m in change.joined],
            "left": [[m.name, m.rule, m.reason, m.other] for m in change.left],
            "redefined": [[r.tool, redefined_lines(r)] for r in change.redefined],
            "tokens": [[d.target, d.old, d.new] for d in change.tokens],
            "prompt": change.prompt, "payloads": list(change.payloads),
        }
    return out
