// The print pages' "Print" button: shown only where a script runs (it needs one).
document.addEventListener("DOMContentLoaded", function () {
  for (const button of document.querySelectorAll("button.print-now")) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  }
});
