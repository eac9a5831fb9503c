// A VitePress site that embeds the widget as README.md's recipe says: the module
// script in `head`, and `incident-search` declared a custom element for Vue.
// tests/e2e/frameworks.test.mjs copies this folder, replaces the example library
// URL (https://incidents.example.org) with the test's own servers, and builds it.
import { defineConfig } from "vitepress";

export default defineConfig({
  lang: "ko-KR",
  title: "Incident Library host",
  description: "VitePress 1.6 host page for the incident-search widget",
  base: "/vitepress/",
  head: [["script", { type: "module", src: "https://incidents.example.org/widget.js" }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === "incident-search" } } },
  themeConfig: {
    nav: [
      { text: "검색", link: "/" },
      { text: "하위 경로", link: "/subpath" },
    ],
  },
});
