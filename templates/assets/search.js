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
  var ui = new window.PagefindUI({
    element: '#search',
    bundlePath: toPath(bundles[0]),
    // Result URLs are site paths (/2024/03/post/); they live under this language's home.
    baseUrl: home,
    mergeIndex: bundles.slice(1).map(function (bundle) {
      return { bundlePath: toPath(bundle), baseUrl: home };
    }),
    showImages: false,
    resetStyles: false,
  });
  var query = new URLSearchParams(window.location.search).get('q');
  if (query) ui.triggerSearch(query);
  var field = document.getElementById('site-search');
  if (field && query) field.value = query;
})();
