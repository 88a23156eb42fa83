// The projector view: shows its screens one at a time, each for its data-seconds, in a
// loop, with no hand on it. A poll that brings a new live part (htmx swaps the whole
// #projector-live) keeps the place in the loop: the same screen if it is still there.
(function () {
  "use strict";
  let index = 0;
  let shownKey = null;
  let timer = null;

  function screens() {
    return Array.from(document.querySelectorAll("#projector-live > .screen"));
  }

  function show(list) {
    if (!list.length) return;
    index = index % list.length;
    list.forEach(function (screen, i) { screen.hidden = i !== index; });
    shownKey = list[index].dataset.screen;
    clearTimeout(timer);
    const seconds = Number(list[index].dataset.seconds) || 10;
    timer = setTimeout(function () { index += 1; show(screens()); }, seconds * 1000);
  }

  function resume() {
    const list = screens();
    const same = list.findIndex(function (screen) { return screen.dataset.screen === shownKey; });
    if (same >= 0) {
      index = same;
      list.forEach(function (screen, i) { screen.hidden = i !== index; });
    } else {
      show(list);
    }
  }

  document.addEventListener("DOMContentLoaded", function () { show(screens()); });
  document.addEventListener("htmx:afterSwap", resume);
})();
