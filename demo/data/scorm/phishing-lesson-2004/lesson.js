// Finds the SCORM 2004 API (API_1484_11) in this window's parents or its opener.
window.lessonApi = function () {
  var win = window;
  for (var i = 0; win && i < 10; i++) {
    if (win.API_1484_11) return win.API_1484_11;
    if (win.parent === win) break;
    win = win.parent;
  }
  if (window.opener && window.opener.API_1484_11) return window.opener.API_1484_11;
  document.body.insertAdjacentHTML("beforeend", '<p role="alert">This lesson must be opened from the course.</p>');
  return null;
};
