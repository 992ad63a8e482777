(function(){
'use strict';
var D = JSON.parse(document.getElementById('leaderboard-data').textContent);
var LANG = {};
D.languages.forEach(function(l){ LANG[l.code] = l; });
var SUBSET = {};
D.subsets.forEach(function(s){ SUBSET[s.id] = s.title; });
var state = {level: 'prompt', subset: '', lang: '', kind: '', q: '', paper: true, col: D.default_sort, dir: -1};
var $ = function(id){ return document.getElementById(id); };

function el(tag, attrs, text){
  var e = document.createElement(tag);
  if (attrs) Object.keys(attrs).forEach(function(k){ if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
function pct(v, signed){ var s = (v * 100).toFixed(1); return signed && v > 0 ? '+' + s : s; }
function cell(m, col){ var c = (m.cells[state.level] || {})[col]; return c || null; }
function colId(c, kind){ return c.subset + '|' + c.language + '|' + kind; }
function kinds(){ return state.kind ? [state.kind] : D.kinds; }
function hasValues(id){ return D.models.some(function(m){ return cell(m, id) !== null; }); }

function columns(){  // the data columns shown: [{c, kind, id}], grouped by (subset, language)
  var out = [];
  D.columns.forEach(function(c){
    if (state.subset && c.subset !== state.subset) return;
    if (state.lang && c.language !== state.lang && c.language !== 'avg' && c.language !== 'delta') return;
    kinds().forEach(function(k){ var id = colId(c, k); if (hasValues(id)) out.push({c: c, kind: k, id: id}); });
  });
  return out;
}
function visible(){
  var q = state.q.toLowerCase();
  return D.models.map(function(m, i){ return {m: m, i: i}; }).filter(function(r){
    if (r.m.kind === 'paper' && !state.paper) return false;
    return !q || (r.m.label + ' ' + (r.m.model || '')).toLowerCase().indexOf(q) >= 0;
  });
}
function sorted(rows){
  var col = state.col, dir = state.dir;
  return rows.slice().sort(function(a, b){
    if (col === 'model') return dir * a.m.label.localeCompare(b.m.label, undefined, {numeric: true});
    var x = cell(a.m, col), y = cell(b.m, col);
    if (!x && !y) return a.i - b.i;
    if (!x) return 1;
    if (!y) return -1;
    return x[0] === y[0] ? a.i - b.i : dir * (x[0] - y[0]);
  });
}
function header(cols){
  var thead = document.querySelector('#board thead');
  thead.textContent = '';
  var top = el('tr', {'class': 'langs'}), bottom = el('tr', {'class': 'kinds'});
  top.appendChild(el('th', {'class': 'tie', rowspan: 2, title: D.notes.pairs}, '≈'));
  var name = el('th', {'class': 'model', rowspan: 2, 'data-col': 'model', scope: 'col'}, 'Model');
  if (state.col === 'model') name.setAttribute('aria-sort', state.dir < 0 ? 'descending' : 'ascending');
  top.appendChild(name);
  var groups = [];
  cols.forEach(function(x){
    var last = groups[groups.length - 1];
    if (last && last.c === x.c) last.n++; else groups.push({c: x.c, n: 1});
  });
  groups.forEach(function(g){
    var th = el('th', {colspan: g.n, 'data-subset': g.c.subset, 'data-lang': g.c.language});
    var sub = el('span', {'class': 'code'}, SUBSET[g.c.subset] ? SUBSET[g.c.subset].replace('IndicIFEval-', '') + ' · ' : '');
    var l = LANG[g.c.language];
    if (l) {
      th.title = l.name + ' (' + l.native + ')';
      th.appendChild(el('span', {'class': 'native', lang: l.code}, l.native));
      sub.textContent += l.code;
    } else {
      th.appendChild(el('span', {'class': 'native'}, g.c.language === 'avg' ? 'Avg' : 'Δ'));
      th.title = g.c.language === 'avg' ? 'mean over the Indic languages' : D.notes.delta;
      sub.textContent += g.c.language === 'avg' ? 'Indic' : 'en − Indic';
    }
    th.appendChild(sub);
    top.appendChild(th);
  });
  cols.forEach(function(x){
    var th = el('th', {'data-col': x.id, scope: 'col', title: x.id}, x.kind);
    if (state.col === x.id) th.setAttribute('aria-sort', state.dir < 0 ? 'descending' : 'ascending');
    bottom.appendChild(th);
  });
  thead.appendChild(top);
  thead.appendChild(bottom);
}
function tie(prev, cur){  // the precomputed paired test of two adjacent models, for the sort column
  var table = (D.pairs[state.level] || {})[state.col];
  if (!table || !prev || prev.m.kind !== 'run' || cur.m.kind !== 'run') return null;
  var a = Math.min(prev.i, cur.i), b = Math.max(prev.i, cur.i);
  return table[a + '|' + b] || null;
}
function body(cols, rows){
  var tbody = document.querySelector('#board tbody');
  tbody.textContent = '';
  var prev = null;
  rows.forEach(function(r){
    var tr = el('tr', {'class': r.m.kind, 'data-model': r.m.label});
    var t = r.m.kind === 'run' ? tie(prev, r) : null;
    var mark = el('td', {'class': 'tie' + (t && !t[3] ? ' same' : '')}, t && !t[3] ? '≈' : '');
    if (t) mark.title = (t[3] ? 'significantly different from ' : 'not significantly different from ') + prev.m.label +
      ': difference ' + pct(t[0], true) + ' points, 95% interval ' + pct(t[1], true) + ' to ' + pct(t[2], true);
    tr.appendChild(mark);
    var name = el('td', {'class': 'model'});
    var button = el('button', {type: 'button', 'data-model': String(r.i), title: r.m.model || r.m.label}, r.m.label);
    name.appendChild(button);
    if (r.m.kind === 'paper') name.appendChild(el('span', {'class': 'badge', title: D.notes.paper}, 'reported, not re-run'));
    else if (r.m.samples > 1) name.appendChild(el('span', {'class': 'badge'}, r.m.samples + ' samples'));
    tr.appendChild(name);
    cols.forEach(function(x){
      var c = cell(r.m, x.id), delta = x.c.language === 'delta';
      var td = el('td', {'data-col': x.id, 'data-v': c ? String(c[0]) : ''});
      if (c) {
        td.appendChild(document.createTextNode(pct(c[0], delta)));
        if (delta) td.className = c[0] > 0 ? 'gap' : c[0] < 0 ? 'gain' : '';
        if (c[1] !== null && c[2] !== null) {
          td.appendChild(el('span', {'class': 'ci'}, pct(c[1], delta) + '–' + pct(c[2], delta)));
          td.title = 'n = ' + c[3] + ' prompts; 95% interval ' + pct(c[1], delta) + ' to ' + pct(c[2], delta);
        }
      } else td.textContent = '·';
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
    if (r.m.kind === 'run') prev = r;
  });
}
function render(){
  var cols = columns(), rows = sorted(visible());
  header(cols);
  body(cols, rows);
  var note = rows.length + ' of ' + D.models.length + ' rows';
  if (!(D.pairs[state.level] || {})[state.col]) note += '; ≈ marks: sort by an Avg column';
  $('shown').textContent = note;
}
function showProvenance(i){
  var m = D.models[i], box = $('prov-body');
  $('prov-title').textContent = m.label + (m.kind === 'paper' ? ' (reported, not re-run)' : '');
  box.textContent = '';
  var dl = el('dl');
  Object.keys(m.provenance).forEach(function(k){
    var v = m.provenance[k];
    dl.appendChild(el('dt', null, k));
    var dd = el('dd', {'data-key': k});
    if (v !== null && typeof v === 'object') dd.appendChild(el('pre', null, JSON.stringify(v, null, 1)));
    else dd.textContent = v === null ? '—' : String(v);
    dl.appendChild(dd);
  });
  box.appendChild(dl);
  $('prov').hidden = false;
}
function options(select, items){
  items.forEach(function(it){ select.appendChild(el('option', {value: it[0]}, it[1])); });
}
options($('f-subset'), D.subsets.map(function(s){ return [s.id, s.title]; }));
options($('f-lang'), D.languages.map(function(l){ return [l.code, l.code + ' · ' + l.name + (l.native !== l.name ? ' · ' + l.native : '')]; }));
$('f-paper').parentNode.hidden = !D.models.some(function(m){ return m.kind === 'paper'; });
[['f-level', 'level'], ['f-subset', 'subset'], ['f-lang', 'lang'], ['f-kind', 'kind']].forEach(function(p){
  $(p[0]).addEventListener('change', function(){ state[p[1]] = this.value; render(); });
});
$('f-q').addEventListener('input', function(){ state.q = this.value; render(); });
$('f-paper').addEventListener('change', function(){ state.paper = this.checked; render(); });
document.querySelector('#board thead').addEventListener('click', function(e){
  var th = e.target.closest('th[data-col]');
  if (!th) return;
  var col = th.getAttribute('data-col');
  state.dir = state.col === col ? -state.dir : (col === 'model' ? 1 : -1);
  state.col = col;
  render();
});
document.querySelector('#board tbody').addEventListener('click', function(e){
  var b = e.target.closest('button[data-model]');
  if (b) showProvenance(Number(b.getAttribute('data-model')));
});
$('prov-close').addEventListener('click', function(){ $('prov').hidden = true; });
document.addEventListener('keydown', function(e){ if (e.key === 'Escape') $('prov').hidden = true; });
render();
if (window.__showErrors) window.__showErrors();
})();
