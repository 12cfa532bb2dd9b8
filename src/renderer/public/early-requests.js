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
})();
