// A SCORM 1.2 SCO: finds the LMS's API object, keeps the answers in cmi.suspend_data and the last
// question in cmi.core.lesson_location, and reports the score and lesson status when submitted.
(function () {
  var KEY = { q1: "b", q2: "a", q3: "a", q4: "a", q5: "a" };
  function findApi(win) {
    for (var i = 0; win && i < 10; i++) {
      if (win.API) return win.API;
      if (win.parent === win) break;
      win = win.parent;
    }
    return window.opener && window.opener.API ? window.opener.API : null;
  }
  var api = findApi(window);
  var form = document.getElementById("quiz");
  var result = document.getElementById("result");
  if (!api) {
    result.textContent = "This quiz must be opened from the course.";
    return;
  }
  api.LMSInitialize("");
  var saved = api.LMSGetValue("cmi.core.suspend_data");
  var answers = {};
  try {
    answers = saved ? JSON.parse(saved) : {};
  } catch {
    answers = {};
  }
  Object.keys(answers).forEach(function (q) {
    var input = form.querySelector('input[name="' + q + '"][value="' + answers[q] + '"]');
    if (input) input.checked = true;
  });
  if (api.LMSGetValue("cmi.core.lesson_status") === "not attempted")
    api.LMSSetValue("cmi.core.lesson_status", "incomplete");
  api.LMSCommit("");
  form.addEventListener("change", function (event) {
    answers[event.target.name] = event.target.value;
    api.LMSSetValue("cmi.core.suspend_data", JSON.stringify(answers));
    api.LMSSetValue("cmi.core.lesson_location", event.target.name);
    api.LMSSetValue("cmi.core.exit", "suspend");
    api.LMSCommit("");
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var right = Object.keys(KEY).filter(function (q) {
      return answers[q] === KEY[q];
    }).length;
    var score = right * 20;
    api.LMSSetValue("cmi.core.score.raw", String(score));
    api.LMSSetValue("cmi.core.score.min", "0");
    api.LMSSetValue("cmi.core.score.max", "100");
    api.LMSSetValue("cmi.core.lesson_status", score >= 60 ? "passed" : "failed");
    api.LMSSetValue("cmi.core.exit", "");
    api.LMSCommit("");
    result.textContent = "Your score: " + score + " out of 100. " + (score >= 60 ? "Passed." : "Not passed.");
    api.LMSFinish("");
  });
  window.addEventListener("pagehide", function () {
    api.LMSCommit("");
  });
})();
