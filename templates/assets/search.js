// Starts the Pagefind search UI over every search bundle of this language and runs the query
// from ?q= (the search box in the header submits here). Paths are computed from this page's
// own address, so the site works under any prefix.
(function () {
  'use strict';
  var element = document.getElementById('search');
  if (!element || typeof window.PagefindUI !== 'function') return;
  var bundles = (element.getAttribute('data-bundles') || '').split(' ').filter(Boolean);
  if (bundles.length === 0) return;
  var home = new URL(element.getAttribute('data-root') || './', window.location.href).pathname;
  var toPath = function (bundle) {
    return new URL(bundle, window.location.href).pathname;
  };
  var primary = toPath(bundles[0]);
  // Result URLs are site paths (/2024/03/post/); they live under this language's home.
  var others = bundles.slice(1).map(function (bundle) {
    return { bundlePath: toPath(bundle), baseUrl: home };
  });
  var start = function (mergeIndex) {
    var ui = new window.PagefindUI({
      element: '#search',
      bundlePath: primary,
      baseUrl: home,
      mergeIndex: mergeIndex,
      showImages: false,
      resetStyles: false,
    });
    var query = new URLSearchParams(window.location.search).get('q');
    if (query) ui.triggerSearch(query);
    var field = document.getElementById('site-search');
    if (field && query) field.value = query;
  };
  // The UI merges the bundles one after another, each waiting for the last (two requests
  // each): with 128 bundles (1,000,000 posts) that was seconds before the first result. They
  // are merged here all at once, in the Pagefind module the UI imports (the same URL, so the
  // same module), and the UI is made after: a search can not run on only some of them.
  import(primary + 'pagefind.js').then(
    function (pagefind) {
      pagefind.options({ baseUrl: home });
      others.forEach(function (other) {
        pagefind.mergeIndex(other.bundlePath, { baseUrl: other.baseUrl }).catch(function (error) {
          console.error(error);
        });
      });
      start([]);
    },
    function () {
      start(others);
    },
  );
})();
