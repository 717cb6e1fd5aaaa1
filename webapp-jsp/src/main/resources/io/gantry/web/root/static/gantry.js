// Gantry's one script, loaded from this server (the content security policy allows no inline
// script). Pages declare what they want with data attributes:
//   data-refresh="N" on an element with an id: reload its content from the page's own URL every
//     N seconds (stops once the fresh content carries data-final);
//   data-confirm="question" on a form: ask before submitting.
(function () {
  'use strict';

  function refresh(element) {
    var seconds = parseInt(element.getAttribute('data-refresh'), 10);
    if (!(seconds > 0) || element.hasAttribute('data-final')) {
      return;
    }
    window.setTimeout(function () {
      fetch(window.location.href, { credentials: 'same-origin', headers: { 'X-Requested-With': 'refresh' } })
        .then(function (response) {
          if (!response.ok) { throw new Error('HTTP ' + response.status); }
          return response.text();
        })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById(element.id);
          if (fresh) {
            // keep the keyboard where it was: focus the same control in the fresh content
            var focused = element.contains(document.activeElement) ? document.activeElement.id : '';
            element.innerHTML = fresh.innerHTML;
            if (focused && document.getElementById(focused)) { document.getElementById(focused).focus(); }
            if (fresh.hasAttribute('data-final')) { element.setAttribute('data-final', ''); }
            document.dispatchEvent(new CustomEvent('gantry:refreshed', { detail: element.id }));
          }
        })
        .catch(function () { /* a missed refresh is retried at the next tick */ })
        .then(function () { refresh(element); });
    }, seconds * 1000);
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('[data-refresh][id]').forEach(refresh);
    // on the document, so forms that a refresh brought in ask too
    document.addEventListener('submit', function (event) {
      var form = event.target;
      if (form.matches('form[data-confirm]') && !window.confirm(form.getAttribute('data-confirm'))) {
        event.preventDefault();
      }
    });
  });
}());
