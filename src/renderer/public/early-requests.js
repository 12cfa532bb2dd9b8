// Web mode only. Sends the two requests the first screen waits for (the health check and the task
// list) while the app's modules are still loading, instead of after they evaluate; the HTTP
// transport adopts the responses (src/renderer/api/early-requests.ts). A classic script because
// it must run before the modules, and a file because the CSP allows no inline script. The URLs
// are the ones the client plans for `getHealth({})` and the task list's first `listTasks`
// (early-requests.test.ts holds them to that); the token is read as select-transport.ts reads it.
(function () {
  if (window.folio) return; // the desktop app talks over IPC
  // Loaded async: if the app started first (it never has, but nothing orders the two), it asks itself.
  if ('__folioEarlyRequests' in window) return;
  var token = null;
  try {
    token = new URLSearchParams(location.search).get('token') || sessionStorage.getItem('folio.token');
  } catch (err) {
    return;
  }
  if (!token) return;
  var init = { method: 'GET', headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' } };
  var responses = {};
  ['/v1/health', '/v1/tasks?status=active'].forEach(function (url) {
    var response = fetch(url, init);
    // Failures are the app's to report when it takes the response; none if it never does.
    response.catch(function () {});
    responses[url] = response;
  });
  window.__folioEarlyRequests = { authorization: init.headers.Authorization, responses: responses };

  // The task list is drawn from its answer at once, while the app's modules still load, parse and
  // render (hundreds of milliseconds on a busy machine): the same classes as the sidebar React draws
  // (components/early-task-row.test.tsx holds the row to TaskItem's),
  // the titles as text, nothing clickable. React's first render replaces it (a root's first commit
  // empties its container), so it is drawn only into an empty root; a clone leaves the body to the app.
  responses['/v1/tasks?status=active']
    .then(function (response) {
      return response.ok ? response.clone().json() : null;
    })
    .then(paintTaskList)
    .catch(function () {});

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function rememberedLayout() {
    try {
      return JSON.parse(localStorage.getItem('folio.layout') || '{}') || {};
    } catch (err) {
      return {};
    }
  }

  function fitToLayout(app, layout) {
    if (typeof layout.sidebarWidth === 'number') app.style.setProperty('--sidebar-w', layout.sidebarWidth + 'px');
  }

  function paintTaskList(body) {
    var root = document.getElementById('root');
    if (!root) return;
    var layout = rememberedLayout();
    var served = root.firstChild;
    // The server drew the list into the page (opened with the token: transport/http/first-page.ts)
    // without this browser's remembered layout: the sidebar's width, or no list if it is collapsed.
    if (served && served.classList && served.classList.contains('first-paint')) {
      if (layout.sidebarOpen === false) root.removeChild(served);
      else fitToLayout(served, layout);
      return;
    }
    if (served || !body || !Array.isArray(body.tasks)) return;
    // A collapsed sidebar shows no list: nothing to draw ahead of the app.
    if (layout.sidebarOpen === false) return;
    var app = el('div', 'app first-paint');
    app.setAttribute('aria-busy', 'true');
    fitToLayout(app, layout);
    var sidebar = el('aside', 'sidebar');
    var header = el('div', 'sidebar-header');
    header.appendChild(el('span', 'brand', 'Folio'));
    sidebar.appendChild(header);
    sidebar.appendChild(el('div', 'sidebar-controls first-paint-controls'));
    sidebar.appendChild(el('div', 'first-paint-projects'));
    var list = el('ul', 'task-list');
    body.tasks.forEach(function (task) {
      var row = el('li', 'task-item');
      var main = el('div', 'task-main');
      var titleRow = el('span', 'task-title-row');
      titleRow.appendChild(el('span', 'mode-dot mode-' + String(task.mode)));
      // An untitled task's name is the app's to word: a blank keeps the row's height till then.
      titleRow.appendChild(el('span', 'task-title', String(task.title || '').trim() || '\u00a0'));
      main.appendChild(titleRow);
      // Empty: its height is in the sheet (a blank in a font size of its own slowed the first frame).
      main.appendChild(el('span', 'task-meta'));
      row.appendChild(main);
      list.appendChild(row);
    });
    sidebar.appendChild(list);
    app.appendChild(sidebar);
    app.appendChild(el('main', 'welcome'));
    root.appendChild(app);
  }
})();
