// The replay page's keys: the arrows step through the game, Home and End jump to its
// ends (a static file, not an inline script: the Content-Security-Policy allows none).
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  var tag = (event.target && event.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  var ids = {ArrowLeft: "step-prev", ArrowRight: "step-next", Home: "step-first", End: "step-last"};
  var link = ids[event.key] && document.getElementById(ids[event.key]);
  if (link && link.getAttribute("aria-disabled") !== "true") { event.preventDefault(); window.location.href = link.href; }
});
