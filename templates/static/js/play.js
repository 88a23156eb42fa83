// The play page's keys (S, D, P, K) and where the keyboard lands after htmx swaps the
// table (a static file, not an inline script: the Content-Security-Policy allows none).
(function () {
  var keys = {s: "act-stock", d: "act-pile", p: "act-pass", k: "act-knock"};
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var id = keys[(event.key || "").toLowerCase()];
    var button = id && document.getElementById(id);
    if (!button) return;
    event.preventDefault();
    if (id === "act-knock") { button.focus(); } else { button.click(); }
  });
  // After the table is swapped in, keep the keyboard where the player can act.
  document.body.addEventListener("htmx:afterSwap", function () {
    if (document.activeElement && document.activeElement !== document.body) return;
    // a question asked (the knock's confirmation) first, else the first move or card
    var next = document.querySelector("#play [data-focus]") ||
      document.querySelector("#play [data-first], #play .card-button");
    if (next) next.focus();
  });
})();
