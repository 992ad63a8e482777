(function(){
  var errors = window.__errors = [];
  function show(){ var el = document.getElementById('js-errors'); if (el) el.textContent = String(errors.length); }
  window.__showErrors = show;
  window.addEventListener('error', function(e){ errors.push(String(e.message || e)); show(); });
  window.addEventListener('unhandledrejection', function(e){ errors.push('unhandled rejection: ' + String(e.reason)); show(); });
  var original = console.error;
  console.error = function(){ errors.push(Array.prototype.join.call(arguments, ' ')); show(); return original.apply(console, arguments); };
})();
