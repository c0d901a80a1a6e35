// judgebook: the judge's table. Keys pick options and undo; the share link gets a Copy button.
// The page works without this file: every option and undo is a button of a GET form.
// No inline script (CSP script-src 'self').
(function () {
  "use strict";
  var picks = Array.prototype.slice.call(document.querySelectorAll(".tb-pick"));
  var undo = document.querySelector(".tb-undo-last");
  var refused = document.querySelector(".tb-refused");
  var steps = Array.prototype.slice.call(document.querySelectorAll(".tb-steps li.rp-step"));
  var at = steps.length - 1;

  var press = function (button) {
    if (!button) return false;
    button.click();
    return true;
  };
  var option = function (n) {
    return picks.filter(function (b) { return b.dataset.n === String(n); })[0];
  };
  var byDefault = function () {
    var li = document.querySelector(".tb-option.is-default .tb-pick");
    return li || (picks.length === 1 ? picks[0] : null);
  };
  var focusStep = function (i) {
    if (!steps.length) return;
    at = Math.max(0, Math.min(steps.length - 1, i));
    steps[at].focus();
  };

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    if (tag === "BUTTON" && (e.key === "Enter" || e.key === " ")) return;
    var done = false;
    if (/^[1-9]$/.test(e.key)) {
      var b = option(e.key);
      // an option that needs a number or X: go to its field rather than submitting it empty
      var field = b && b.form && b.form.querySelector(".tb-params input[type=number]");
      if (field) { field.focus(); done = true; } else done = press(b);
    } else if (e.key === "Enter" || e.key === "ArrowRight") done = press(byDefault());
    else if (e.key === "u" || e.key === "Backspace" || e.key === "ArrowLeft") done = press(undo);
    else if (e.key === "r" && refused) { refused.open = !refused.open; done = true; }
    else if (e.key === "j") { focusStep(at + 1); done = true; }
    else if (e.key === "k") { focusStep(at - 1); done = true; }
    if (done) e.preventDefault();
  });

  var share = document.querySelector(".tb-share"), copy = document.querySelector(".tb-copy");
  if (share && copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText(share.value).then(function () { copy.textContent = "Copied"; },
        function () { share.select(); });
    });
  }
  if (share) share.addEventListener("focus", function () { share.select(); });
})();
