(function(){
'use strict';
function $(id){ return document.getElementById(id); }
function el(tag, cls, text){ var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }

// ---- sortable tables ----
function cellValue(td){
  var v = td.getAttribute('data-v');
  if (v === null) v = td.textContent.trim();
  return v;
}
function sortTable(table, col, th){
  var tbody = table.tBodies[0]; if (!tbody) return;
  var dir = th.getAttribute('aria-sort') === 'descending' ? 'ascending' :
            th.getAttribute('aria-sort') === 'ascending' ? 'descending' : (th.classList.contains('num') ? 'descending' : 'ascending');
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function(h){ h.setAttribute('aria-sort', 'none'); });
  th.setAttribute('aria-sort', dir);
  var rows = Array.prototype.slice.call(tbody.rows);
  var keyed = rows.map(function(r, i){
    var td = r.cells[col]; var raw = td ? cellValue(td) : '';
    var num = raw === '' ? NaN : Number(raw);
    return {r: r, i: i, raw: raw, num: num};
  });
  var numeric = keyed.every(function(k){ return k.raw === '' || !isNaN(k.num); });
  var sign = dir === 'ascending' ? 1 : -1;
  keyed.sort(function(a, b){
    var ae = a.raw === '', be = b.raw === '';
    if (ae || be) return ae === be ? a.i - b.i : (ae ? 1 : -1);   // missing values last either way
    var c = numeric ? a.num - b.num : a.raw.localeCompare(b.raw, undefined, {numeric: true, sensitivity: 'base'});
    return c === 0 ? a.i - b.i : sign * c;
  });
  var frag = document.createDocumentFragment();
  keyed.forEach(function(k){ frag.appendChild(k.r); });
  tbody.appendChild(frag);
}
Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function(table){
  if (!table.tHead) return;
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function(th, col){
    th.setAttribute('aria-sort', 'none');
    th.addEventListener('click', function(){ sortTable(table, col, th); });
  });
});
Array.prototype.forEach.call(document.querySelectorAll('input[data-toggle-paper]'), function(box){
  var table = document.querySelector('#' + box.getAttribute('data-toggle-paper') + ' table');
  box.addEventListener('change', function(){ if (table) table.classList.toggle('hide-paper', !box.checked); });
});

// ---- samples (a page without them, such as the build report, has only sortable tables) ----
// Each run's samples are a script file beside the page (samples/run-<i>.js) that calls
// window.__indicifevalSamples(i, {rows, prompts}); it is added when its run is shown, since a
// page opened from disk may load a script but not fetch() a file.
if (!$('sample-list')){ window.__showErrors && window.__showErrors(); return; }
var blob = $('samples-index');
var data = blob ? JSON.parse(blob.textContent) : {runs: [], files: [], counts: [], ids: [], languages: {}};
var R = {run: 0, lang: 1, subset: 2, key: 3, prompt: 4, answer: 5, reasoning: 6, finish: 7, ids: 8, strict: 9,
         loose: 10, expl: 11, pstrict: 12, ploose: 13};
var loaded = {}, waiting = {}, failed = {};
var rows = [];
var state = {run: data.runs.length ? '0' : '', lang: '', subset: '', inst: '', verdict: '', q: '', page: 0, size: 25};
var matches = [];
var haystacks = null;
var section = $('samples');

window.__indicifevalSamples = function(run, part){
  loaded[run] = part;
  var done = waiting[run]; delete waiting[run];
  if (done) done();
};
function loadRun(run, done){
  if (loaded[run] || failed[run]){ done(); return; }
  waiting[run] = done;
  var s = document.createElement('script');
  s.src = data.files[run];
  s.onerror = function(){ failed[run] = true; var d = waiting[run]; delete waiting[run]; if (d) d(); };
  document.head.appendChild(s);
}
function chosenRuns(){
  return state.run === '' ? data.runs.map(function(_, i){ return i; }) : [Number(state.run)];
}
function status(text){ $('sample-status').textContent = text; }
var generation = 0;
function load(then){
  var runs = chosenRuns(), mine = ++generation, k = 0;
  section.setAttribute('data-state', 'loading');
  function next(){
    if (mine !== generation) return;  // another choice came meanwhile
    if (k < runs.length){
      var run = runs[k++];
      status('Loading the samples of ' + data.runs[run] + ' (' + (data.counts[run] || 0).toLocaleString() + ')…');
      loadRun(run, next);
      return;
    }
    rows = [];
    var missing = [];
    runs.forEach(function(run){
      if (loaded[run]) rows = rows.concat(loaded[run].rows); else missing.push(data.files[run]);
    });
    haystacks = null;
    status(missing.length ? 'Could not read ' + missing.join(', ') + ': keep the samples folder next to this page.' : '');
    section.setAttribute('data-state', missing.length ? 'error' : 'ready');
    then();
  }
  next();
}
function promptOf(r){ var part = loaded[r[R.run]]; return part ? part.prompts[r[R.prompt]] : ''; }

function fill(select, items){
  items.forEach(function(it){ var o = el('option', null, it[1]); o.value = it[0]; select.appendChild(o); });
}
fill($('f-run'), data.runs.map(function(n, i){ return [String(i), n]; }));
if (data.runs.length > 1) fill($('f-run'), [['', 'all runs (loads ' + data.runs.length + ' files)']]);
$('f-run').value = state.run;
fill($('f-lang'), Object.keys(data.languages).map(function(c){ return [c, c + ' · ' + data.languages[c]]; }));
fill($('f-inst'), data.ids.map(function(id, i){ return [String(i), id]; }).sort(function(a, b){ return a[1] < b[1] ? -1 : 1; }));

function haystack(i){
  if (!haystacks) haystacks = new Array(rows.length);
  var h = haystacks[i];
  if (h === undefined){
    var r = rows[i];
    h = haystacks[i] = [r[R.key], promptOf(r) || '', r[R.answer] || '', (r[R.expl] || []).join(' '),
                        data.runs[r[R.run]]].join('\n').toLowerCase();
  }
  return h;
}

function apply(){
  var run = state.run === '' ? -1 : Number(state.run), inst = state.inst === '' ? -1 : Number(state.inst);
  var v = state.verdict, want = v.indexOf('pass') === 0, field = v.slice(-5) === 'loose' ? R.loose : R.strict;
  var pfield = v.slice(-5) === 'loose' ? R.ploose : R.pstrict;
  var words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
  matches = [];
  for (var i = 0; i < rows.length; i++){
    var r = rows[i];
    if (run >= 0 && r[R.run] !== run) continue;
    if (state.lang && r[R.lang] !== state.lang) continue;
    if (state.subset && r[R.subset] !== state.subset) continue;
    var pos = -1;
    if (inst >= 0){ pos = r[R.ids].indexOf(inst); if (pos < 0) continue; }
    if (v){
      var ok = pos >= 0 ? !!r[field][pos] : !!r[pfield];
      if (ok !== want) continue;
    }
    if (words.length){
      var h = haystack(i), all = true;
      for (var w = 0; w < words.length; w++){ if (h.indexOf(words[w]) < 0){ all = false; break; } }
      if (!all) continue;
    }
    matches.push(i);
  }
  state.page = 0;
  render();
}

function verdictBadge(label, ok){ return el('span', 'verdict ' + (ok ? 'ok' : 'no'), label + (ok ? ' ✓' : ' ✗')); }

function textBlock(title, text, lang){
  var box = el('div');
  box.appendChild(el('h4', null, title));
  var t = el('div', 'text' + (text ? '' : ' empty'), text ? text : '(empty)');
  t.setAttribute('dir', 'auto');
  if (lang && text){ t.setAttribute('lang', lang); }
  box.appendChild(t);
  return box;
}

function sampleCard(i){
  var r = rows[i], lang = r[R.lang];
  var card = el('article', 'sample');
  card.setAttribute('data-index', String(i));
  var head = el('header');
  head.appendChild(el('strong', null, data.runs[r[R.run]]));
  var l = el('span', 'badge', lang + ' · ' + (data.languages[lang] || lang)); head.appendChild(l);
  head.appendChild(el('span', 'badge', r[R.subset]));
  head.appendChild(el('span', 'key', String(r[R.key])));
  head.appendChild(verdictBadge('prompt strict', r[R.pstrict]));
  head.appendChild(verdictBadge('loose', r[R.ploose]));
  if (r[R.finish] && r[R.finish] !== 'stop') head.appendChild(el('span', 'verdict warn', 'finish: ' + r[R.finish]));
  card.appendChild(head);
  var texts = el('div', 'texts');
  texts.appendChild(textBlock('Prompt', promptOf(r), lang));
  texts.appendChild(textBlock('Answer', r[R.answer], null));
  card.appendChild(texts);
  if (r[R.reasoning]){
    var d = el('details', 'reasoning');
    d.appendChild(el('summary', null, 'Reasoning (' + r[R.reasoning].length.toLocaleString() + ' characters)'));
    var t = el('div', 'text', r[R.reasoning]); t.setAttribute('dir', 'auto'); d.appendChild(t);
    card.appendChild(d);
  }
  var table = el('table', 'inst'), thead = el('thead'), tr = el('tr');
  ['instruction', 'strict', 'loose', 'explanation'].forEach(function(h){ tr.appendChild(el('th', null, h)); });
  thead.appendChild(tr); table.appendChild(thead);
  var tbody = el('tbody'), inst = state.inst === '' ? -1 : Number(state.inst);
  r[R.ids].forEach(function(id, k){
    var row = el('tr', id === inst ? 'hl' : null);
    row.appendChild(el('td', null, data.ids[id]));
    row.appendChild(el('td', 'vd ' + (r[R.strict][k] ? 'ok' : 'no'), r[R.strict][k] ? '✓' : '✗'));
    row.appendChild(el('td', 'vd ' + (r[R.loose][k] ? 'ok' : 'no'), r[R.loose][k] ? '✓' : '✗'));
    var ex = el('td', null, (r[R.expl] || [])[k] || ''); ex.setAttribute('dir', 'auto');
    row.appendChild(ex);
    tbody.appendChild(row);
  });
  table.appendChild(tbody);
  card.appendChild(table);
  return card;
}

function pager(box){
  box.textContent = '';
  var pages = Math.max(1, Math.ceil(matches.length / state.size));
  var prev = el('button', null, '‹ previous'); prev.type = 'button'; prev.disabled = state.page <= 0;
  var next = el('button', null, 'next ›'); next.type = 'button'; next.disabled = state.page >= pages - 1;
  prev.addEventListener('click', function(){ go(state.page - 1, box); });
  next.addEventListener('click', function(){ go(state.page + 1, box); });
  var first = state.page * state.size;
  var count = el('span', 'count', matches.length ? (first + 1).toLocaleString() + '–' +
      Math.min(first + state.size, matches.length).toLocaleString() + ' of ' + matches.length.toLocaleString() +
      ' matching samples (' + rows.length.toLocaleString() + ' in all)' : 'no sample matches (' + rows.length.toLocaleString() + ' in all)');
  var pageInfo = el('span', null, 'page ' + (state.page + 1) + ' / ' + pages);
  var size = el('select'); [10, 25, 50, 100].forEach(function(n){ var o = el('option', null, n + ' per page'); o.value = String(n); if (n === state.size) o.selected = true; size.appendChild(o); });
  size.addEventListener('change', function(){ state.size = Number(size.value); state.page = 0; render(); });
  box.appendChild(prev); box.appendChild(pageInfo); box.appendChild(next); box.appendChild(count);
  box.appendChild(el('span', 'grow')); box.appendChild(size);
}
function go(page, box){
  var pages = Math.max(1, Math.ceil(matches.length / state.size));
  state.page = Math.min(Math.max(page, 0), pages - 1);
  render();
  if (box.id === 'pager-bottom') $('samples').scrollIntoView();
}

function render(){
  var list = $('sample-list');
  list.textContent = '';
  var frag = document.createDocumentFragment();
  var first = state.page * state.size;
  for (var k = first; k < Math.min(first + state.size, matches.length); k++) frag.appendChild(sampleCard(matches[k]));
  list.appendChild(frag);
  pager($('pager-top')); pager($('pager-bottom'));
}

function bind(id, key){
  $(id).addEventListener('change', function(){ state[key] = $(id).value; apply(); });
}
$('f-run').addEventListener('change', function(){ state.run = $('f-run').value; load(apply); });
bind('f-lang', 'lang'); bind('f-subset', 'subset'); bind('f-inst', 'inst'); bind('f-verdict', 'verdict');
var timer = null;
$('f-q').addEventListener('input', function(){
  clearTimeout(timer);
  timer = setTimeout(function(){ state.q = $('f-q').value; apply(); }, 180);
});
function setFilters(f){  // the run stays as it is unless f names one
  var run = f.run === undefined ? state.run : f.run, again = run !== state.run;
  state.run = run; $('f-run').value = run;
  ['lang', 'subset', 'inst', 'verdict'].forEach(function(k){ state[k] = f[k] || ''; $('f-' + k).value = state[k]; });
  state.q = f.q || ''; $('f-q').value = state.q;
  if (again) load(apply); else apply();
}
$('f-reset').addEventListener('click', function(){ setFilters({}); });
$('filters').addEventListener('submit', function(e){ e.preventDefault(); });  // Enter in the search box

// a click on a table cell opens its samples
document.addEventListener('click', function(e){
  var td = e.target.closest ? e.target.closest('td[data-drill]') : null;
  if (!td) return;
  var f = {};
  var run = td.getAttribute('data-run');
  if (run !== null){ var ri = data.runs.indexOf(run); if (ri >= 0) f.run = String(ri); }
  if (td.getAttribute('data-lang')) f.lang = td.getAttribute('data-lang');
  if (td.getAttribute('data-subset')) f.subset = td.getAttribute('data-subset');
  var inst = td.getAttribute('data-inst');
  if (inst !== null){ var ii = data.ids.indexOf(inst); if (ii >= 0) f.inst = String(ii); }
  setFilters(f);
  $('samples').scrollIntoView();
});

render();
load(apply);  // the first run's samples: the script is added now, so the page's load event waits for it
window.__showErrors && window.__showErrors();
})();
