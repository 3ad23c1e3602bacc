import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

const versionOf = (head: string, body = '<main><h1>Home</h1><p>Text.</p></main>') => extractHtml(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, 'https://d.example/index.html').siteVersion;

describe('the version a page says its documentation is of', () => {
  it.each([
    ['<title>Fixtures — pytest 7.2 documentation</title>', '7.2'],
    ['<title>PostgreSQL 15.20 Documentation</title>', '15.20'],
    ['<title>3.11.2 Documentation</title>', '3.11.2'],
    ['<title>Guide - Widgetlib v2.0.0-rc1 docs</title>', '2.0.0-rc1'],
    ['<title>Scala Standard Library 2.11.12</title>', '2.11.12'],
  ])('reads it from the site’s part of <title>: %s → %s', (head, expected) => {
    expect(versionOf(head)).toBe(expected);
  });

  it.each([
    ['<title>What’s New In Python 3.12</title>'],
    ['<title>Release notes for 2023</title>'],
    ['<title>Python 3 documentation</title>'],
    ['<title>Getting started — MkDocs</title>'],
    ['<title>HTTP/1.1 reference</title>'],
    ['<title>Overview — Foo docs, updated 12.03.2024</title>'],
  ])('reads none from a page’s own subject or a number that is no release: %s', (head) => {
    expect(versionOf(head)).toBeUndefined();
  });

  it('reads a release in the page’s own title only when it names documentation as a whole (a Javadoc overview’s h1)', () => {
    expect(versionOf('<title>Overview (JUnit API)</title>', '<main><h1 class="title">JUnit 4.13.2 API</h1><p>Text.</p></main>')).toBe('4.13.2');
    expect(versionOf('<title>Changes</title>', '<main><h1>What’s New In Python 3.12</h1><p>Text.</p></main>')).toBeUndefined();
    expect(versionOf('<title>Announce</title>', '<main><h1>py.test 2.0.0: asserts++, reporting++, docs++</h1><p>Text.</p></main>')).toBeUndefined();
    expect(versionOf('<title>Migrating</title>', '<main><h1>Migrating to the 2.0 API</h1><p>Text.</p></main>')).toBeUndefined();
    expect(versionOf('<title>Upgrading</title>', '<main><h1>Upgrading from 1.4 to 2.0 API</h1><p>Text.</p></main>')).toBeUndefined();
    expect(versionOf('<title>Manual</title>', '<main><h1>Widgetlib v2.1 Manual</h1><p>Text.</p></main>')).toBe('2.1');
  });

  it('reads the generator’s own version element, even where it is chrome (Doxygen’s project number, rustdoc’s crate version)', () => {
    expect(versionOf('<title>libssh: libssh</title>', '<div id="top"><div id="projectname">libssh&#160;<span id="projectnumber">0.10.6</span></div></div><div class="contents"><p>Text.</p></div>')).toBe('0.10.6');
    expect(versionOf('<title>GLib Reference Manual: GLib Reference Manual</title>', '<div class="book"><div><p class="releaseinfo">for GLib 2.74.6</p></div></div>')).toBe('2.74.6');
    expect(versionOf('<title>proc_macro2 - Rust</title>', '<nav class="sidebar"><div class="sidebar-elems"><ul><li class="version">Version 1.0.49</li></ul></div></nav><main><h1>Crate proc_macro2</h1></main>')).toBe('1.0.49');
  });
});

const siteNameOf = (head: string, body = '<main><h1>Introduction</h1><p>Text.</p></main>') => extractHtml(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, 'https://d.example/index.html').siteName;

describe('the name a page gives its site', () => {
  it('reads gi-docgen’s library version, not its API version', () => {
    const sidebar = '<nav class="sidebar"><div class="section namespace"><h3><a href="index.html">Gtk</a></h3><p>API Version: 4.0</p><p>Library Version: 4.8.3</p></div></nav>';
    expect(versionOf('<title>Gtk &ndash; 4.0</title>', `${sidebar}<main><h1>Gtk</h1><p>Text.</p></main>`)).toBe('4.8.3');
  });

  it('is the site’s part of <title>, not the page’s own ("Introduction")', () => {
    expect(siteNameOf('<title>CMake Reference Documentation — CMake 3.25.1 Documentation</title>')).toBe('CMake 3.25.1 Documentation');
    expect(siteNameOf('<title>Fixtures — pytest documentation</title>')).toBe('pytest documentation');
  });

  it('is the generator’s project name, without its version (Doxygen’s PROJECT_NAME)', () => {
    expect(siteNameOf('<title>libssh: Main Page</title>', '<div id="top"><div id="projectname">libssh&#160;<span id="projectnumber">0.10.6</span></div></div><div class="contents"><p>Text.</p></div>')).toBe('libssh');
  });

  it('is the part after " | " where the generator always writes the site there (Docusaurus, VitePress, TypeDoc), whatever its words', () => {
    const docusaurus = '<div id="__docusaurus"><main><div class="theme-doc-markdown markdown"><header><h1>intro</h1></header><p>Text.</p></div></main></div>';
    expect(siteNameOf('<title data-rh="true">intro | Fastify</title>', docusaurus)).toBe('Fastify');
    expect(siteNameOf('<title>intro | Fastify</title>')).toBeUndefined();
    const typedoc = '<div class="col-content"><div class="tsd-page-title"><h1>Function addDays</h1></div><section class="tsd-panel"><p>Text.</p></section></div>';
    expect(siteNameOf('<title>addDays | date-fns - v3.6.0</title>', typedoc)).toBe('date-fns - v3.6.0');
    const vitepress = '<div class="VPDoc"><div class="vp-doc"><h1 id="routes">Routes</h1><p>Text.</p></div></div>';
    expect(siteNameOf('<title>Routes | Fastify</title>', vitepress)).toBe('Fastify');
    // The last " | ": the page's name may hold one, or a dash.
    expect(siteNameOf('<title>Reply | Reference | Fastify</title>', vitepress)).toBe('Fastify');
    expect(siteNameOf('<title>Intro — getting started | Widget</title>', vitepress)).toBe('Widget');
    // A VitePress home page whose titleTemplate puts a tagline last is titled site first.
    expect(siteNameOf('<title>Widget | Next Generation Widget Tooling</title>', '<div class="VPHome"><div class="VPHero"><h1 class="name">Widget</h1></div></div>')).toBeUndefined();
  });

  it('is none when <title> names only the page, or its last part is only a guess at the site', () => {
    expect(siteNameOf('<title>SQLite Home Page</title>')).toBeUndefined();
    expect(siteNameOf('<title>libfoo - a tiny library for foo</title>')).toBeUndefined();
    expect(siteNameOf('<title>Tutorial - Widgetlib</title><meta property="og:site_name" content="Widgetlib">')).toBe('Widgetlib');
  });
});
