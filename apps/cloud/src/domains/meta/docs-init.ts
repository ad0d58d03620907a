/**
 * The interactive reference's start-up script (`/docs/init.js`; a file, because the page's policy allows no
 * inline script): Swagger UI on `/openapi.json`, light to open and usable by keyboard and screen reader.
 *
 * Light: every tag starts collapsed, so the first paint draws ~30 tag headers, not ~260 operations; and the
 * resolver Swagger UI runs when an operation opens is handed that operation and what it refers to, not the
 * whole document (see `SubtreeResolver`).
 * `#/<tag>/<operationId>` still opens the operation it names (deep linking).
 */

/** Swagger UI's options, the page's own plugins aside. */
const REFERENCE_OPTIONS = {
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // 'list' (the default) mounts every operation's summary up front; the tag headers alone paint at once
  docExpansion: 'none',
  // the document declares no named schemas; nothing to list under "Schemas"
  defaultModelsExpandDepth: -1,
  validatorUrl: null,
  persistAuthorization: false,
  layout: 'BaseLayout',
  // the default theme (agate) draws JSON strings at 3.45:1 on its dark grey, under WCAG's 4.5:1 (axe: 39
  // findings in one answered operation); obsidian is as dark and passes
  syntaxHighlight: { activated: true, theme: 'obsidian' },
} as const;

/**
 * Swagger UI resolves an operation when it opens, through swagger-client's OpenAPI 3.1 resolver, which first
 * turns the whole document it is handed into ApiDOM: 1.6–7.5 s a call for this document here, and one call as
 * the page starts (the security schemes) froze its first paint. Handed an excerpt — the part asked for, what an
 * operation inherits (the root's fields, its path item's parameters and servers) and the components its
 * references reach — the same resolver gives the same answer in milliseconds. What it cannot answer from the
 * excerpt (a reference into anything but a component) it is asked again with the whole document.
 */
const SUBTREE_RESOLVER = `
  var METHODS = /^(get|put|post|delete|options|head|patch|trace)$/;
  var COMPONENT = /^#\\/components\\/([^/]+)\\/([^/]+)$/;
  function token(t) { return decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'); }
  // adds to \`into\` the components that the references under \`node\` reach, and theirs
  function reach(spec, node, into) {
    if (!node || typeof node !== 'object') return;
    var m = typeof node.$ref === 'string' && COMPONENT.exec(node.$ref);
    if (m) {
      var kind = token(m[1]), name = token(m[2]);
      var target = spec.components && spec.components[kind] && spec.components[kind][name];
      if (target !== undefined && !(into[kind] && name in into[kind])) {
        (into[kind] = into[kind] || {})[name] = target;
        reach(spec, target, into);
      }
    }
    for (var k in node) if (Object.prototype.hasOwnProperty.call(node, k)) reach(spec, node[k], into);
  }
  // null when \`path\` is neither under paths nor under components
  function excerpt(spec, path) {
    var out = {}, part;
    Object.keys(spec).forEach(function (k) { if (k !== 'paths' && k !== 'webhooks' && k !== 'components') out[k] = spec[k]; });
    out.paths = {};
    out.components = {};
    if (path[0] === 'components' && path.length > 1 && spec.components && spec.components[path[1]]) {
      part = out.components[path[1]] = spec.components[path[1]];
    } else if (path[0] === 'paths' && path.length > 1 && spec.paths && spec.paths[path[1]]) {
      part = spec.paths[path[1]];
      if (path.length > 2) {
        var item = part;
        part = {};
        Object.keys(item).forEach(function (k) { if (k === path[2] || !METHODS.test(k)) part[k] = item[k]; });
      }
      out.paths[path[1]] = part;
    } else {
      return null;
    }
    reach(spec, part, out.components);
    return out;
  }
  function SubtreeResolver(system) {
    var bundled = SwaggerUIBundle.plugins.SwaggerClient(system).fn.resolveSubtree;
    return {
      fn: {
        resolveSubtree: function (spec, path, options) {
          var whole = function () { return bundled(spec, path, options); };
          var part = null;
          try {
            part = excerpt(spec, path);
          } catch (e) {
            // a reference that is not a well-formed pointer: the resolver judges it on the whole document
          }
          if (!part) return whole();
          return bundled(part, path, options).then(function (r) { return r.errors && r.errors.length ? whole() : r; }, whole);
        },
      },
    };
  }`;

/**
 * Swagger UI reads the document it downloads as YAML (js-yaml), ~0.3 s more than JSON.parse for this one on
 * this machine; a document that parses as JSON is taken as such (the same object), anything else as before.
 */
const JSON_FIRST = `
  function JsonFirst() {
    return {
      statePlugins: {
        spec: {
          wrapActions: {
            parseToJson: function (ori, system) {
              return function (str) {
                var json;
                try {
                  json = JSON.parse(str || system.specSelectors.specStr());
                } catch (e) {
                  return ori(str);
                }
                return json && typeof json === 'object' ? system.specActions.updateJsonSpec(json) : ori(str);
              };
            },
          },
        },
      },
    };
  }`;

/**
 * Faults of the bundled UI that the page can mend without forking it. Its dropdowns have no accessible name
 * (axe: select-name, critical): the servers one sits in an empty label, a parameter's (enum, boolean) has
 * none; they are named "Server" and after the parameter. Each operation's summary is a button with a link
 * inside (axe: nested-interactive, serious; and a second tab stop per operation): the path is drawn as text
 * instead (expanding an operation still puts its deep link in the address bar).
 */
const ACCESSIBLE_CONTROLS = `
  // names only what has none: React never sets aria-label on these, so it never undoes this
  function name(elements, label) {
    for (var i = 0; i < elements.length; i++) if (!elements[i].hasAttribute('aria-label')) elements[i].setAttribute('aria-label', label);
  }
  function AccessibleControls(system) {
    var React = system.React;
    return {
      wrapComponents: {
        Servers: function (Original) {
          return function LabelledServers(props) {
            React.useEffect(function () {
              name(document.querySelectorAll('select#servers'), 'Server');
            });
            return React.createElement(Original, props);
          };
        },
        parameterRow: function (Original) {
          return function LabelledParameterRow(props) {
            var param = props.param;
            React.useEffect(function () {
              if (!param || !param.get) return;
              var row = 'tr[data-param-name="' + CSS.escape(String(param.get('name'))) + '"][data-param-in="' + CSS.escape(String(param.get('in'))) + '"]';
              name(document.querySelectorAll(row + ' select'), String(param.get('name')));
            });
            return React.createElement(Original, props);
          };
        },
        OperationSummaryPath: function (Original) {
          return function PlainSummaryPath(props) {
            var op = props.operationProps;
            return React.createElement(Original, op && op.set ? Object.assign({}, props, { operationProps: op.set('isDeepLinkingEnabled', false) }) : props);
          };
        },
      },
    };
  }`;

/** The script, with the key preset for "Try it out" when given (sandbox only). */
export function docsInitScript(presetApiKey: string | null): string {
  const onComplete =
    presetApiKey === null
      ? '// production: no credential is preset'
      : `// sandbox only: alice's public sandbox key (docs/sandbox.md), ready for "Try it out"
      window.ui.preauthorizeApiKey('apiKey', ${JSON.stringify(presetApiKey)});`;
  return `'use strict';
(function () {${SUBTREE_RESOLVER}
${JSON_FIRST}
${ACCESSIBLE_CONTROLS}
  var options = ${JSON.stringify(REFERENCE_OPTIONS)};
  options.presets = [SwaggerUIBundle.presets.apis];
  options.plugins = [SubtreeResolver, JsonFirst, AccessibleControls];
  options.onComplete = function () {
      ${onComplete}
  };
  window.ui = SwaggerUIBundle(options);
})();
`;
}
