package io.segscope.inspector.report;

/**
 * The page's one style sheet and one script, constants so that the Content-Security-Policy can
 * name them by hash. The script colours the partition map from the page's JSON (health, size or
 * dirty ratio), filters it, shows a partition's or a group's details, sorts and filters tables.
 * Any script error or policy violation is written into the page ({@code #script-status}, attribute
 * {@code data-error}); once done it sets {@code data-ok}.
 */
final class PageScript {
    private PageScript() {
    }

    static final String STYLE = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 2em 2em;color:#212121;max-width:1200px}
            header{border-bottom:1px solid #ccc;margin-bottom:1em}
            nav a{margin-right:1em}
            h2{border-bottom:1px solid #eee;margin-top:1.6em}
            .verdict{font-size:1.1em;font-weight:600;background:#f5f5f5;padding:.5em .8em;border-left:4px solid #1e88e5}
            dl.figures{display:flex;flex-wrap:wrap;gap:.4em 1.6em}
            dl.figures div{min-width:10em}
            dt{font-size:.8em;color:#616161}
            dd{margin:0;font-weight:600}
            table{border-collapse:collapse;margin:.6em 0;font-size:.85em}
            th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
            th{background:#eceff1;cursor:pointer}
            tr.stopped td,tr.hanging td{background:#fff3e0}
            tr.sev-error td{background:#ffebee}
            .note{color:#616161;font-size:.85em}
            .status{font-size:.8em;color:#9e9e9e}
            .status[data-error]{color:#c62828;font-weight:600}
            svg.chart{display:block;margin:.5em 0;max-width:100%;height:auto}
            svg text{font-size:11px;fill:#424242}
            svg text.end{text-anchor:end}
            svg text.mid{text-anchor:middle}
            svg rect.cell{cursor:pointer;stroke:#fff}
            svg rect.cell.sel{stroke:#000;stroke-width:2}
            .pdetail,.gdetail{border:1px solid #ccc;padding:.5em 1em;margin:1em 0;background:#fafafa}
            .legend .key{display:inline-block;padding:0 .4em;color:#fff;border-radius:3px;font-size:.8em}
            .key.k0{background:#43a047}.key.k1{background:#9ccc65}.key.k2{background:#fbc02d}.key.k3{background:#e53935}.key.k4{background:#8e24aa}
            #map-legend-text{font-size:.8em;color:#616161}
            p.lines{font-size:.8em}
            .swatch.c0{color:#1e88e5}.swatch.c1{color:#43a047}.swatch.c2{color:#fb8c00}.swatch.c3{color:#8e24aa}.swatch.c4{color:#00acc1}
            .swatch.c5{color:#6d4c41}.swatch.c6{color:#3949ab}.swatch.c7{color:#c0ca33}.swatch.c8{color:#d81b60}.swatch.c9{color:#546e7a}
            ul.left{color:#6d4c41;font-size:.85em}
            td.sha,.cmd code{font-family:ui-monospace,monospace;font-size:.8em;word-break:break-all}
            footer{border-top:1px solid #ccc;margin-top:2em;font-size:.85em}
            """;

    static final String SCRIPT = """
            (function () {
              'use strict';
              var status = document.getElementById('script-status');
              function fail(m) {
                status.setAttribute('data-error', m);
                status.textContent = 'Script error: ' + m;
              }
              window.addEventListener('error', function (e) { fail(String(e.message)); });
              document.addEventListener('securitypolicyviolation', function (e) { fail('content security policy: ' + e.violatedDirective); });
              try {
                var data = JSON.parse(document.getElementById('report-data').textContent);
                var cells = document.querySelectorAll('#map rect.cell');
                var mode = document.getElementById('map-mode');
                function colour() {
                  var m = mode ? mode.value : 'h';
                  for (var i = 0; i < cells.length; i++) {
                    var c = data.cells[Number(cells[i].getAttribute('data-i'))];
                    cells[i].setAttribute('fill', c[m]);
                  }
                  var keys = document.getElementById('map-legend');
                  if (keys) {
                    keys.hidden = m !== 'h';
                    var t = document.getElementById('map-legend-text');
                    if (!t) {
                      t = document.createElement('span');
                      t.id = 'map-legend-text';
                      keys.parentNode.appendChild(t);
                    }
                    t.textContent = m === 'h' ? '' : data.legend[m];
                  }
                }
                if (mode) { mode.addEventListener('change', colour); }
                colour();
                var filter = document.getElementById('map-filter');
                if (filter) {
                  filter.addEventListener('input', function () {
                    var q = filter.value.toLowerCase();
                    for (var i = 0; i < cells.length; i++) {
                      var n = data.cells[Number(cells[i].getAttribute('data-i'))].n.toLowerCase();
                      cells[i].setAttribute('opacity', q === '' || n.indexOf(q) >= 0 ? '1' : '0.15');
                    }
                  });
                }
                function only(selector, id) {
                  var all = document.querySelectorAll(selector);
                  for (var i = 0; i < all.length; i++) { all[i].hidden = all[i].id !== id; }
                  var el = document.getElementById(id);
                  if (el) { el.scrollIntoView({block: 'nearest'}); }
                  return el;
                }
                for (var i = 0; i < cells.length; i++) {
                  cells[i].addEventListener('click', function (e) {
                    var i = e.currentTarget.getAttribute('data-i');
                    for (var k = 0; k < cells.length; k++) { cells[k].classList.remove('sel'); }
                    e.currentTarget.classList.add('sel');
                    only('.pdetail', 'pd-' + i);
                  });
                }
                var plinks = document.querySelectorAll('a.show-partition');
                for (var q = 0; q < plinks.length; q++) {
                  plinks[q].addEventListener('click', function (e) {
                    e.preventDefault();
                    var i = e.currentTarget.getAttribute('data-p');
                    for (var k = 0; k < cells.length; k++) {
                      cells[k].classList.toggle('sel', cells[k].getAttribute('data-i') === i);
                    }
                    only('.pdetail', 'pd-' + i);
                  });
                }
                var links = document.querySelectorAll('a.show-group');
                for (var j = 0; j < links.length; j++) {
                  links[j].addEventListener('click', function (e) {
                    e.preventDefault();
                    only('.gdetail', 'gd-' + e.currentTarget.getAttribute('data-g'));
                  });
                }
                var tables = document.querySelectorAll('table.sortable');
                for (var t = 0; t < tables.length; t++) {
                  (function (table) {
                    var heads = table.querySelectorAll('thead th');
                    for (var c = 0; c < heads.length; c++) {
                      (function (col, th) {
                        th.addEventListener('click', function () {
                          var body = table.tBodies[0];
                          var rows = Array.prototype.slice.call(body.rows);
                          var desc = th.getAttribute('data-sort') === 'asc';
                          for (var k = 0; k < heads.length; k++) { heads[k].removeAttribute('data-sort'); }
                          th.setAttribute('data-sort', desc ? 'desc' : 'asc');
                          function key(r) {
                            var cell = r.cells[col];
                            var v = cell.getAttribute('data-v');
                            return v !== null ? Number(v) : cell.textContent;
                          }
                          rows.sort(function (a, b) {
                            var x = key(a), y = key(b);
                            var o = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
                            return desc ? -o : o;
                          });
                          for (var k = 0; k < rows.length; k++) { body.appendChild(rows[k]); }
                        });
                      })(c, heads[c]);
                    }
                  })(tables[t]);
                }
                var filters = document.querySelectorAll('input.filter');
                for (var f = 0; f < filters.length; f++) {
                  filters[f].addEventListener('input', function (e) {
                    var input = e.currentTarget;
                    var table = document.getElementById(input.getAttribute('data-table'));
                    var q = input.value.toLowerCase();
                    var rows = table.tBodies[0].rows;
                    for (var k = 0; k < rows.length; k++) {
                      rows[k].hidden = q !== '' && rows[k].textContent.toLowerCase().indexOf(q) < 0;
                    }
                  });
                }
                if (location.hash.indexOf('#gd-') === 0) { only('.gdetail', location.hash.substring(1)); }
                if (location.hash.indexOf('#pd-') === 0) { only('.pdetail', location.hash.substring(1)); }
                if (!status.hasAttribute('data-error')) {
                  status.setAttribute('data-ok', String(cells.length));
                  status.textContent = '';
                }
              } catch (e) {
                fail(String(e && e.message ? e.message : e));
              }
            })();
            """;
}
