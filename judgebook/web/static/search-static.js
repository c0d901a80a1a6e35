// Client-side search for the static export, over window.JB_INDEX (search-index.js).
//
// It ranks like the server (judgebook/search): the same records, words and
// word pairs, BM25 with the same parameters and field lengths, the same query
// grammar (phrases, -exclusions, doc:/era:/kind: filters, rule numbers,
// question words), card names, synonym table, candidate steps, re-ranking
// (titles, definitions, eras, kinds, coverage, examples as their rules),
// today's word among the first two, one hit per rule, and the spelling
// corrector over the documents' vocabulary. Not here: stemming words the
// documents never use (they find nothing on either side).
// tests/test_search_static.py runs the same queries through both.
// Results are built with DOM nodes only: no index text ever goes through innerHTML.
(function (root) {
  "use strict";

  var WORDCHAR = /[\p{L}\p{N}_]/u;
  var TOKEN = /[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*/gu;
  var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;
  var QUOTES = {"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
                "\u2018": "'", "\u2019": "'", "\u2212": "-", "\u2013": "-", "\u2014": "-"};
  var NUMBER = /^(?:(?:rules?|r|sections?|sec|steps?|\u00a7)\s*)?(\d{1,2}(?:\.\d{1,3})*)(?:(?:\.|\s)?([a-z]))?\.?$/i;
  var DOC_PREFIX = /^([a-z][a-z0-9]*(?:[-.][a-z0-9]+)*):(.+)$/i;
  var ANCHOR = /^[\p{L}\p{N}_./-]+$/u;
  var DOTTED = /^\d{1,2}(?:\.\d{1,3})+[a-z]?$/i;
  var SYMBOLS = {"[c]": " credit ", "[click]": " click ", "[sub]": " subroutine ", "[trash]": " trash ",
                 "[recurring]": " recurring credit ", "[link]": " link ", "[mu]": " memory unit ",
                 "[interrupt]": " interrupt ", "[agenda]": " agenda "};
  var SYMBOL = /\[(?:c|click|sub|trash|recurring|link|mu|interrupt|agenda)\]/gi;
  var RND = /\bR\s*&\s*D\b/gi;
  var FILTER_KEYS = ["doc", "era", "kind"];

  function unaccent(s) { return s.normalize("NFKD").replace(/\p{M}/gu, ""); }
  function lightFold(s) { return unaccent(s.toLowerCase()); }
  // schema.fold: lower case, accents off, apostrophes dropped, other punctuation to spaces
  function fold(s) {
    var bare = unaccent(s.replace(RND, " rnd ")).toLowerCase().replace(/['\u2019]/g, "");
    return bare.replace(/[^\p{L}\p{N}_]+/gu, " ").trim().split(/\s+/).filter(Boolean).join(" ");
  }
  function indexText(s) {
    return s.replace(SYMBOL, function (m) { return SYMBOLS[m.toLowerCase()]; }).replace(RND, " rnd ");
  }
  // Signed bytes from base 64 (semantic vectors).
  function bytesOf(b64) {
    var raw = atob(b64), out = new Int8Array(raw.length);
    for (var k = 0; k < raw.length; k++) out[k] = raw.charCodeAt(k) << 24 >> 24;
    return out;
  }
  function b36list(s) { return s ? s.split(",").map(function (x) { return parseInt(x, 36); }) : []; }

  // ---- the index --------------------------------------------------------------------------
  function Engine(ix) {
    this.ix = ix;
    this.c = ix.consts;
    this.n = ix.n;
    this.fields = {text: field(ix.text), pairs: field(ix.pairs)};
    this.cards = new Set(ix.cards);
    this.qwords = new Set(this.c.QUESTION_WORDS);
    this.stop = new Set(this.c.STOP);
    this.articles = new Set(this.c.ARTICLES);
    this.synonyms = ix.synonyms;
    this.semantic = semanticTable(ix.semantic);
    this.items = ix.items.map(function (it, i) {
      return {i: i, href: it[0], kind: it[1], title: it[2], snippet: it[3], family: it[4],
              superseded: it[5], titleKey: it[7], defines: it[8], parent: it[9],
              heads: new Set(it[10] ? it[10].split(" ") : []),
              about: it[11] ? bytesOf(it[11]) : null, about2: it[12] || 0,
              members: it[6].map(function (m) {
                return {href: m[0], doc: ix.docs[m[1]][0], label: ix.docs[m[1]][1], era: m[2],
                        number: m[3], rank: m[4], id: m[5]};
              })};
    });
    this.byNumber = null;
  }
  function field(f) {
    return {avg: f.avg, len: b36list(f.len), post: f.post, cache: new Map()};
  }

  Engine.prototype.postings = function (name, term) {
    // Map docnum -> count of `term` in that text's field `name`.
    var f = this.fields[name], got = f.cache.get(term);
    if (got) return got;
    got = new Map();
    var code = f.post[term];
    if (code) {
      var prev = 0;
      code.split(",").forEach(function (g) {
        var dot = g.indexOf(".");
        prev += parseInt(dot < 0 ? g : g.slice(0, dot), 36);
        got.set(prev, dot < 0 ? 1 : parseInt(g.slice(dot + 1), 36));
      });
    }
    f.cache.set(term, got);
    return got;
  };

  Engine.prototype.termScores = function (name, term, boost) {
    // Whoosh's BM25F for one word of one field: Map docnum -> score.
    var f = this.fields[name], post = this.postings(name, term), out = new Map();
    var B = this.c.B, K1 = this.c.K1;
    var idf = Math.log(this.n / (post.size + 1)) + 1;
    post.forEach(function (tf, d) {
      var fl = f.len[d];
      out.set(d, idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / f.avg))) * boost);
    });
    return out;
  };

  // ---- words as the server analyses them ---------------------------------------------------------
  Engine.prototype.analyze = function (text) {
    // ANALYZER(index_text(text)): words and rule numbers, lower case, no accents, no stop words, stemmed.
    var self = this, out = [];
    (indexText(text).match(TOKEN) || []).forEach(function (tok) {
      var w = lightFold(tok);
      if (w.length < 2 || self.stop.has(w)) return;
      var known = self.ix.words[w];
      out.push(known ? known[0] : w);
    });
    return out.filter(Boolean);
  };
  Engine.prototype.stem = function (word) {
    // backend.stem: the indexed form of one word ("" for a stop word).
    var w = fold(word).replace(/ /g, "");
    if (!w || this.stop.has(w) || w.length < 2) return "";
    var known = this.ix.words[w];
    return known ? known[0] || w : w;
  };
  Engine.prototype.wordKey = function (word) {
    var w = fold(word).replace(/ /g, ""), known = this.ix.words[w];
    return known ? known[1] : w;
  };
  Engine.prototype.phraseKey = function (words) {
    var self = this;
    return fold(words.join(" ")).split(" ").filter(function (w) { return w && !self.articles.has(w); })
      .map(function (w) { return self.wordKey(w); }).join(" ");
  };

  // ---- the query grammar (querygrammar.py) -----------------------------------------------------
  function clean(text, c, messages) {
    text = String(text == null ? "" : text).normalize("NFKC").replace(/[\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019\u2212\u2013\u2014]/g,
      function (ch) { return QUOTES[ch]; });
    var stripped = text.replace(CONTROL, " ");
    if (stripped !== text) messages.push("Control characters in the query were ignored.");
    stripped = stripped.split(/\s+/).filter(Boolean).join(" ");
    if (stripped.length > c.MAX_QUERY_CHARS) {
      var cut = stripped.slice(0, c.MAX_QUERY_CHARS), sp = cut.lastIndexOf(" ");
      stripped = (sp > 0 ? cut.slice(0, sp) : cut);
      messages.push("The query was cut to its first " + stripped.length + " characters.");
    }
    return stripped;
  }
  function canonicalNumber(text) {
    var m = NUMBER.exec(text.trim());
    return m ? m[1] + (m[2] || "").toLowerCase() : null;
  }
  function wordOf(token) {
    var t = token.replace(/^[^\p{L}\p{N}_\[]+|[^\p{L}\p{N}_\]]+$/gu, "");
    return /[\p{L}\p{N}]/u.test(t) ? t : "";
  }
  function scan(text) {
    var out = [], i = 0, n = text.length;
    while (i < n) {
      var ch = text[i];
      if (/\s/.test(ch)) { i++; continue; }
      if (ch === '"' || (ch === "-" && i + 1 < n && text[i + 1] === '"')) {
        var neg = ch === "-", start = i + (neg ? 2 : 1), end = text.indexOf('"', start);
        var closed = end !== -1, body = closed ? text.slice(start, end) : text.slice(start);
        if (neg) out.push(["NOT", false, true]);
        out.push([body, true, closed]);
        i = closed ? end + 1 : n;
        continue;
      }
      var j = i;
      while (j < n && !/\s/.test(text[j]) && text[j] !== '"') j++;
      out.push([text.slice(i, j), false, true]);
      i = j;
    }
    return out;
  }
  Engine.prototype.filterValue = function (key, value) {
    value = value.trim().replace(/^['"]+|['"]+$/g, "").toLowerCase();
    if (key === "kind") return this.c.KIND_ALIASES[value] || value;
    if (key === "era") return this.c.ERA_ALIASES[value] || value;
    return value;
  };
  Engine.prototype.parse = function (query) {
    var self = this, messages = [], items = [], filters = {doc: [], era: [], kind: []}, negateNext = false;
    var text = clean(query, this.c, messages);
    scan(text).forEach(function (t) {
      var token = t[0], quoted = t[1], closed = t[2];
      if (quoted) {
        if (!closed) messages.push("The closing quote was missing: searched for those words as a phrase.");
        var ws = token.split(/\s+/).map(wordOf).filter(Boolean);
        if (ws.length) items.push({words: ws, phrase: ws.length > 1, negated: negateNext});
        negateNext = false;
        return;
      }
      if (token === "AND" || token === "OR" || token === "+") return;
      if (token === "NOT") { negateNext = true; return; }
      var negated = negateNext, body = token;
      negateNext = false;
      while (body[0] === "-" || body[0] === "+") { negated = negated || body[0] === "-"; body = body.slice(1); }
      if (!body) return;
      var colon = body.indexOf(":"), key = colon > 0 ? body.slice(0, colon).toLowerCase() : "";
      if (colon > 0 && FILTER_KEYS.indexOf(key) >= 0) {
        var vals = body.slice(colon + 1).split(",").map(function (v) { return self.filterValue(key, v); })
          .filter(Boolean);
        if (!vals.length) { messages.push("'" + key + ":' needs a value; it was ignored."); return; }
        vals.forEach(function (v) { if (filters[key].indexOf(v) < 0) filters[key].push(v); });
        return;
      }
      var w = wordOf(body);
      if (w) items.push({words: [w], phrase: false, negated: negated});
    });
    if (items.length > this.c.MAX_ITEMS) items = items.slice(0, this.c.MAX_ITEMS);
    var ref = null;
    if (items.length && !items.some(function (c) { return c.negated || c.phrase; })) {
      ref = parseRef(items.map(function (c) { return c.words.join(" "); }).join(" "));
    }
    var positive = items.filter(function (c) { return !c.negated; });
    var keywords = positive.filter(function (c) { return c.phrase || !self.qwords.has(c.words[0].toLowerCase()); });
    if (!keywords.length) keywords = positive;
    return {items: items, positive: positive, keywords: keywords,
            negative: items.filter(function (c) { return c.negated; }), filters: filters, ref: ref,
            messages: messages};
  };
  function parseRef(text) {
    text = text.trim();
    if (!text) return null;
    var number = canonicalNumber(text);
    if (number) return {number: number, doc: "", id: ""};
    var m = DOC_PREFIX.exec(text);
    if (!m || FILTER_KEYS.indexOf(m[1].toLowerCase()) >= 0) return null;
    var doc = m[1].toLowerCase(), rest = m[2].trim();
    number = canonicalNumber(rest);
    if (number) return {number: number, doc: doc, id: doc + ":" + rest};
    if (ANCHOR.test(rest)) return {number: "", doc: doc, id: doc + ":" + rest};
    return null;
  }

  // ---- spelling (fuzzy.py, planning._correct) --------------------------------------------------
  function osa(a, b) {
    // Optimal string alignment distance: insert, delete, substitute, swap neighbours.
    if (a === b) return 0;
    var prev2 = [], prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      for (j = 1; j <= b.length; j++) {
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur.push(v);
      }
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }
  function levenshtein(a, b, most) {
    // Plain edit distance (a swap is two edits), as Whoosh's terms_within measures; most+1 when over.
    if (Math.abs(a.length - b.length) > most) return most + 1;
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var low = i;
      for (j = 1; j <= b.length; j++) {
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0));
        cur.push(v);
        if (v < low) low = v;
      }
      if (low > most) return most + 1;
      prev = cur;
    }
    return prev[b.length];
  }
  function maxEdits(word) { return word.length <= 5 ? 1 : 2; }
  Engine.prototype.frequency = function (word) {
    var self = this, terms = this.analyze(word);
    if (!terms.length) return -1;
    return Math.min.apply(null, terms.map(function (t) { return self.postings("text", t).size; }));
  };
  Engine.prototype.within = function (w, most, prefix) {
    var spell = this.ix.spell, out = [], head = w.slice(0, prefix);
    for (var t in spell) {
      if (t.lastIndexOf(head, 0) === 0 && levenshtein(w, t, most) <= most) out.push(t);
    }
    return out;
  };
  Engine.prototype.candidates = function (word, most) {
    var spell = this.ix.spell, w = fold(word).replace(/ /g, ""), found = new Set();
    for (var i = 0; i + 1 < w.length; i++) {
      if (w[i] === w[i + 1]) continue;
      var t = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
      if (Object.prototype.hasOwnProperty.call(spell, t)) found.add(t);
    }
    this.within(w, 1, w.length >= 6 ? 2 : 1).forEach(function (t) { found.add(t); });
    if (!found.size && w.length >= 6) this.within(w, 1, 1).forEach(function (t) { found.add(t); });
    if (!found.size && most > 1) this.within(w, most, 2).forEach(function (t) { found.add(t); });
    return Array.from(found).map(function (t) { return [t, spell[t]]; });
  };
  function best(word, candidates) {
    var limit = maxEdits(word), scored = [];
    candidates.forEach(function (c) {
      if (c[0] === word) return;
      var d = osa(word, c[0]);
      if (d <= limit) scored.push([d, -c[1], c[0]]);
    });
    scored.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0); });
    return scored.length ? scored[0][2] : null;
  }
  Engine.prototype.phraseExists = function (words) {
    var terms = this.analyze(words.join(" "));
    if (terms.length < 2) return terms.length > 0 && this.postings("text", terms[0]).size > 0;
    for (var k = 0; k + 1 < terms.length; k++) if (!this.postings("pairs", terms[k] + " " + terms[k + 1]).size) return false;
    return true;
  };
  Engine.prototype.correct = function (words, i) {
    var self = this, word = words[i], freq = this.frequency(word);
    if (freq < 0 || freq > this.c.RARE) return null;
    var cands = this.candidates(word, freq === 0 ? maxEdits(word) : 1).filter(function (c) { return self.stem(c[0]); });
    var w = fold(word);
    if (freq === 0) return best(w, cands);
    var neighbours = [i ? words[i - 1] : "", i + 1 < words.length ? words[i + 1] : ""].filter(Boolean);
    if (!neighbours.length) return null;
    var common = cands.filter(function (c) { return c[1] >= self.c.COMMON_FACTOR * freq; });
    while (common.length) {
      var b = best(w, common);
      if (b === null) return null;
      var pairs = [];
      if (i) pairs.push([words[i - 1], b]);
      if (i + 1 < words.length) pairs.push([b, words[i + 1]]);
      if (pairs.some(function (p) { return self.phraseExists(p); })) return b;
      common = common.filter(function (c) { return c[0] !== b; });
    }
    return null;
  };
  function fuzzable(word, c) { return word.length >= c.MIN_LENGTH && word.length <= c.MAX_LENGTH && /^\p{L}+$/u.test(word); }

  // ---- the semantic table (semantic.py): integers, so both sides get the very same cosines --------
  function semanticTable(t) {
    var rows = new Map();
    t.words.forEach(function (w, r) { rows.set(w, r); });
    return {dims: t.dims, rows: rows, weights: t.weights, vectors: bytesOf(t.vectors)};
  }
  Engine.prototype.questionVector = function (parsed) {
    // semantic.question_vector: the weighted sum of the rows of all the question's words as typed.
    var t = this.semantic, words = [];
    parsed.positive.forEach(function (c) { words = words.concat(c.words); });
    var counts = new Map(), acc = new Array(t.dims).fill(0);
    fold(indexText(words.join(" "))).split(" ").forEach(function (w) {
      if (w && t.rows.has(w)) counts.set(w, (counts.get(w) || 0) + 1);
    });
    counts.forEach(function (n, w) {
      var r = t.rows.get(w), k = t.weights[r] * n, base = r * t.dims;
      for (var d = 0; d < t.dims; d++) acc[d] += k * t.vectors[base + d];
    });
    return acc;
  };
  function norm2(v) {
    var s = 0;
    for (var d = 0; d < v.length; d++) s += v[d] * v[d];
    return s;
  }
  function cosine(q, q2, about, about2) {
    if (!q2 || !about2 || !about) return 0;
    var dot = 0;
    for (var d = 0; d < q.length; d++) dot += q[d] * about[d];
    return dot / Math.sqrt(q2 * about2);
  }

  // ---- planning (planning.py) ---------------------------------------------------------------
  Engine.prototype.rarity = function (words) {
    var terms = this.analyze(words.join(" "));
    if (!terms.length) return 0;
    var self = this;
    var df = Math.min.apply(null, terms.map(function (t) { return self.postings("text", t).size; }));
    return Math.log(1 + this.n / (1 + df));
  };
  Engine.prototype.expand = function (words, protectedPos) {
    // synonyms.expand: spans an entry applies to, longest first, never over protected positions.
    var self = this, keys = words.map(function (w) { return self.stem(w.toLowerCase()); });
    var found = new Map(), order = [], taken = new Set();
    this.synonyms.forEach(function (entry) {
      var pattern = entry[0], also = entry[1], n = pattern.length;
      for (var start = 0; start + n <= keys.length; start++) {
        var same = true, span = [];
        for (var k = 0; k < n; k++) { span.push(start + k); if (keys[start + k] !== pattern[k]) same = false; }
        if (!same || span.some(function (p) { return protectedPos.has(p); })) continue;
        var key = start + ":" + (start + n);
        if (span.some(function (p) { return taken.has(p); }) && !found.has(key)) continue;
        span.forEach(function (p) { taken.add(p); });
        if (!found.has(key)) { found.set(key, {start: start, end: start + n, also: []}); order.push(key); }
        var e = found.get(key);
        also.forEach(function (a) {
          if (!e.also.some(function (b) { return b.join(" ") === a.join(" "); })) e.also.push(a);
        });
      }
    });
    return order.map(function (k) { return found.get(k); })
      .sort(function (a, b) { return a.start - b.start || a.end - b.end; });
  };
  Engine.prototype.cardPositions = function (words) {
    var folded = words.map(fold), taken = new Set();
    for (var n = Math.min(this.c.MAX_CARD_WORDS, words.length); n > 1; n--) {
      for (var start = 0; start + n <= words.length; start++) {
        var span = [];
        for (var k = 0; k < n; k++) span.push(start + k);
        if (span.some(function (p) { return taken.has(p); })) continue;
        if (this.cards.has(folded.slice(start, start + n).join(" "))) span.forEach(function (p) { taken.add(p); });
      }
    }
    return taken;
  };
  Engine.prototype.plan = function (parsed, filters) {
    var self = this, words = [], numbers = [], phraseUnits = [];
    parsed.keywords.forEach(function (c) {
      if (c.phrase) phraseUnits.push({alts: [{words: c.words, weight: 1}]});
      else if (DOTTED.test(c.words[0])) numbers.push(canonicalNumber(c.words[0]) || c.words[0].toLowerCase());
      else words.push(c.words[0]);
    });
    var cards = this.cardPositions(words), expansions = this.expand(words, cards);
    // Spelling: a word the index lacks is rewritten; a word of the documents is kept,
    // its likely correction searched alongside it.
    var fixed = words.slice(), also = new Map();
    words.forEach(function (word, k) {
      if (cards.has(k) || expansions.some(function (e) { return e.start <= k && k < e.end; }) || !fuzzable(word, self.c)) return;
      var better = self.correct(words, k);
      if (better && self.frequency(word) > 0) also.set(k, better);
      else if (better) fixed[k] = better;
    });
    var typed = words;
    words = fixed.map(function (w, k) { return also.has(k) ? also.get(k) : w; });
    var changed = words.some(function (w, k) { return w !== typed[k]; });
    if (changed) expansions = this.expand(words, cards);
    var units = [], i = 0, starts = new Map();
    expansions.forEach(function (e) { starts.set(e.start, e); });
    while (i < words.length) {
      var e = starts.get(i), end = e ? e.end : i + 1, original = words.slice(i, end);
      var own = this.phraseKey(original), alts = [{words: original, weight: 1}];
      if (e) e.also.forEach(function (a) {
        if (self.phraseKey(a) !== own) alts.push({words: a, weight: self.c.SYNONYM_WEIGHT});
      });
      var span = [];
      for (var k = i; k < end; k++) span.push(k);
      if (span.some(function (k) { return also.has(k); })) {
        alts.push({words: span.map(function (k) { return also.has(k) ? fixed[k] : words[k]; }), weight: 1});
      }
      units.push({alts: alts});
      i = end;
    }
    units = units.concat(phraseUnits);
    units.forEach(function (u) { u.weight = self.rarity(u.alts[0].words); });
    var phrases = [];
    parsed.positive.forEach(function (c) { if (c.phrase) phrases = phrases.concat(c.words); });
    var variants = new Set([this.phraseKey(words.concat(phrases))]);
    expansions.forEach(function (e) {
      e.also.forEach(function (a) {
        variants.add(self.phraseKey(words.slice(0, e.start).concat(a, words.slice(e.end), phrases)));
      });
    });
    variants.delete("");
    var question = parsed.keywords.length < parsed.positive.length;
    var kept = [];
    parsed.positive.forEach(function (c, k) { if (parsed.keywords.indexOf(c) >= 0) kept.push(k); });
    var apart = question && kept.length > 0 && kept[kept.length - 1] - kept[0] + 1 > kept.length;
    var namesCard = cards.size > 0 || (fixed.length === 1 && this.cards.has(fold(fixed[0])));
    return {corrected: changed ? words.join(" ") : "", units: units, exclude: parsed.negative.map(function (c) { return c.words; }), numbers: numbers,
            filters: filters, question: question, apart: apart, namesCard: namesCard, variants: variants,
            about: question ? this.questionVector(parsed) : []};
  };

  // ---- the backend's queries, as maps docnum -> score -------------------------------------------
  function union(maps) {
    var out = new Map();
    maps.forEach(function (m) { m.forEach(function (v, d) { out.set(d, (out.get(d) || 0) + v); }); });
    return out;
  }
  function intersection(maps) {
    if (!maps.length) return new Map();
    var smallest = maps.reduce(function (a, b) { return a.size <= b.size ? a : b; }), out = new Map();
    smallest.forEach(function (_, d) {
      var total = 0;
      for (var k = 0; k < maps.length; k++) {
        var v = maps[k].get(d);
        if (v === undefined) return;
        total += v;
      }
      out.set(d, total);
    });
    return out;
  }
  function andMaybe(base, optional) {
    var out = new Map();
    base.forEach(function (v, d) { var o = optional.get(d); out.set(d, o === undefined ? v : v + o); });
    return out;
  }
  function withCommon(base, common) {
    // andMaybe(base, union(common)), to the same sums, looking up base's texts only.
    var out = new Map();
    base.forEach(function (v, d) {
      var extra;
      common.forEach(function (m) {
        var o = m.get(d);
        if (o !== undefined) extra = extra === undefined ? o : extra + o;
      });
      out.set(d, extra === undefined ? v : v + extra);
    });
    return out;
  }
  Engine.prototype.words = function (words, weight) {
    // backend._words: one word, or a phrase as its word pairs.
    var terms = this.analyze(words.join(" "));
    if (!terms.length) return null;
    if (terms.length === 1) return this.termScores("text", terms[0], weight);
    var pairs = [];
    for (var k = 0; k + 1 < terms.length; k++) pairs.push(this.termScores("pairs", terms[k] + " " + terms[k + 1], weight));
    return pairs.length === 1 ? pairs[0] : intersection(pairs);
  };
  Engine.prototype.unit = function (u) {
    var self = this;
    var alts = u.alts.map(function (a) { return self.words(a.words, a.weight); }).filter(Boolean);
    if (!alts.length) return null;
    return alts.length === 1 ? alts[0] : union(alts);
  };
  Engine.prototype.numberUnit = function (n) {
    var byNumber = new Map();
    this.items.forEach(function (it) {
      if (it.members.some(function (m) { return m.number === n; })) byNumber.set(it.i, 8);
    });
    return union([byNumber, this.termScores("text", n, 1)]);
  };
  Engine.prototype.units = function (plan) {
    var self = this, out = [], weights = [];
    plan.units.forEach(function (u) { var q = self.unit(u); if (q) { out.push(q); weights.push(u.weight); } });
    plan.numbers.forEach(function (n) { out.push(self.numberUnit(n)); weights.push(self.c.COMMON_IDF); });
    return {queries: out, weights: weights};
  };
  Engine.prototype.allowed = function (filters) {
    if (!filters.doc.length && !filters.era.length && !filters.kind.length) return null;
    var ok = new Set();
    this.items.forEach(function (it) {
      if (filters.doc.length && !it.members.some(function (m) { return filters.doc.indexOf(m.doc) >= 0; })) return;
      if (filters.era.length && !it.members.some(function (m) { return filters.era.indexOf(m.era || "none") >= 0; })) return;
      if (filters.kind.length && filters.kind.indexOf(it.kind) < 0) return;
      ok.add(it.i);
    });
    return ok;
  };
  Engine.prototype.adjacent = function (plan) {
    var self = this, simple = plan.units.filter(function (u) { return u.alts.length === 1 && u.alts[0].words.length === 1; });
    if (simple.length < 2) return null;
    var words = simple.map(function (u) { return u.alts[0].words[0]; });
    var together = this.words(words, 1);
    if (!together) return null;
    var required = plan.units.filter(function (u) { return simple.indexOf(u) < 0; })
      .map(function (u) { return self.unit(u); }).filter(Boolean);
    plan.numbers.forEach(function (n) { required.push(self.numberUnit(n)); });
    var base = required.length ? intersection([together].concat(required)) : together;
    var terms = this.analyze(words.join(" "));
    if (!terms.length) return base;
    return andMaybe(base, union(terms.map(function (t) { return self.termScores("text", t, 1); })));
  };
  Engine.prototype.search = function (plan, limit, enough) {
    // backend.Reader.search: up to `limit` records, best first, trying looser steps until `enough`.
    var u = this.units(plan), units = u.queries;
    if (!units.length) return {hits: [], total: 0};
    var allowed = this.allowed(plan.filters), self = this;
    var excluded = plan.exclude.map(function (w) { return self.words(w, 1); }).filter(Boolean);
    var steps = units.length === 1 ? [[units[0], enough]] : [[intersection(units), enough], [union(units), Math.min(3, enough)]];
    if (plan.question && units.length > 1) {
      var C = this.c.COMMON_IDF;
      var rare = units.filter(function (_, k) { return u.weights[k] >= C; });
      var common = units.filter(function (_, k) { return u.weights[k] < C; });
      steps = [[rare.length && common.length ? withCommon(union(rare), common) : union(units), limit]];
    }
    var adj = plan.apart || plan.question ? null : this.adjacent(plan);
    if (adj) steps.unshift([adj, enough]);
    var hits = [], seen = new Set(), total = 0;
    for (var s = 0; s < steps.length; s++) {
      if (hits.length >= steps[s][1]) break;
      var scored = [];
      steps[s][0].forEach(function (v, d) {
        if (allowed && !allowed.has(d)) return;
        if (excluded.some(function (x) { return x.has(d); })) return;
        scored.push([v, d]);
      });
      total = Math.max(total, scored.length);
      scored.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
      scored.slice(0, limit).forEach(function (p) {
        if (!seen.has(p[1])) { seen.add(p[1]); hits.push({item: self.items[p[1]], score: p[0]}); }
      });
    }
    return {hits: hits.slice(0, limit), total: total};
  };

  // ---- ranking.py ---------------------------------------------------------------------------
  Engine.prototype.prior = function (it, plan) {
    var c = this.c, m = it.members[0], f = plan.filters, era = 1;
    if (!(f.doc.length || f.era.length)) {
      if (m.rank === 0) era = c.NEWEST_PRIOR;
      else if (it.kind === "page" || m.era === "onr-1996") era = c.HISTORY_PRIOR;
      else if (it.superseded) era = c.SUPERSEDED_PRIOR;
      else era = c.OLDER_PRIOR;
    }
    if (plan.namesCard || f.kind.length) return era;
    if (c.CARD_KINDS.indexOf(it.kind) >= 0) return era * c.CARD_PRIOR;
    if (it.kind === "example") return era * c.EXAMPLE_PRIOR;
    return era;
  };
  function rankKey(a, b) {
    return b.score - a.score || a.item.members[0].rank - b.item.members[0].rank ||
      (a.item.members[0].id < b.item.members[0].id ? -1 : a.item.members[0].id > b.item.members[0].id ? 1 : 0);
  }
  Engine.prototype.rerank = function (hits, variants, plan) {
    var self = this, c = this.c, wanted = new Set();
    plan.units.forEach(function (u) { self.phraseKey(u.alts[0].words).split(" ").forEach(function (k) { if (k) wanted.add(k); }); });
    var weigh = plan.question || c.COVERAGE_FOR_ALL;
    var units = plan.units.map(function (u) {
      return [u.weight, u.alts.map(function (a) {
        return a.words.map(function (w) { return self.stem(w); }).filter(Boolean);
      })];
    });
    var total = units.reduce(function (s, u) { return s + u[0]; }, 0);
    function has(it, stems) {
      return stems.every(function (t) { return self.postings("text", t).has(it.i); });
    }
    function cover(it) {
      if (!weigh || !total) return 1;
      var share = units.reduce(function (s, u) {
        return s + (u[1].some(function (stems) { return has(it, stems); }) ? u[0] : 0);
      }, 0) / total;
      return Math.pow(share, c.COVERAGE_POWER);
    }
    function headed(it) {
      // A question: e ** (HEADING_WEIGHT * the share of its units the headings have).
      if (!plan.question || !total) return 1;
      var share = units.reduce(function (s, u) {
        return s + (u[1].some(function (stems) {
          return stems.every(function (t) { return it.heads.has(t); });
        }) ? u[0] : 0);
      }, 0) / total;
      return Math.exp(c.HEADING_WEIGHT * share);
    }
    var power = plan.question ? c.QUESTION_PRIOR_POWER : 1;
    var q2 = norm2(plan.about);
    function about(it) {
      // A question: e ** (SEMANTIC_WEIGHT * the cosine of its vector and the text's).
      if (!plan.question) return 1;
      return Math.exp(c.SEMANTIC_WEIGHT * cosine(plan.about, q2, it.about, it.about2));
    }
    function bonus(it) {
      var title = it.titleKey, reasons = [1];
      if (title && variants.has(title)) reasons.push(c.TITLE_BONUS);
      else if (title && wanted.size && Array.from(wanted).every(function (k) { return title.split(" ").indexOf(k) >= 0; }))
        reasons.push(c.TITLE_WORDS_BONUS);
      if (it.defines.some(function (d) { return variants.has(d); })) reasons.push(c.DEFINES_BONUS);
      else if (it.defines.some(function (d) {
        var ws = d.split(" ");
        return d && ws.every(function (k) { return wanted.has(k); }) && ws.length * 2 >= wanted.size;
      })) reasons.push(c.DEFINES_PART_BONUS);
      return Math.max.apply(null, reasons);
    }
    return hits.map(function (h) {
      return {item: h.item, raw: h.score, score: h.score * Math.pow(self.prior(h.item, plan), power) * bonus(h.item) * cover(h.item) *
        headed(h.item) * about(h.item)};
    }).sort(rankKey);
  };
  Engine.prototype.examplesToRules = function (plan, hits) {
    if (!plan.question || plan.filters.kind.length) return hits;
    var self = this, best = new Map(), order = [], allowed = this.allowed(plan.filters);
    hits.forEach(function (h) {
      var target = h, it = h.item;
      if (it.kind === "example" && it.parent >= 0 && (!allowed || allowed.has(it.parent))) {
        target = {item: self.items[it.parent], raw: 0, score: h.score / Math.pow(self.c.EXAMPLE_PRIOR, self.c.QUESTION_PRIOR_POWER) * self.c.EXAMPLE_AS_RULE};
      }
      var key = target.item.i, had = best.get(key);
      if (!had) order.push(key);
      if (!had || target.score > had.score) best.set(key, target);
    });
    return order.map(function (k) { return best.get(k); }).sort(rankKey);
  };
  Engine.prototype.withTodaysWord = function (plan, hits) {
    var alt = Object.assign({}, plan, {units: plan.units.map(function (u) {
      return u.alts.length > 1 ? {alts: u.alts.slice(1), weight: 1} : u;
    })});
    var best = this.rerank(this.search(alt, this.c.TODAYS_WORD_POOL, 1).hits, plan.variants, alt).slice(0, 1);
    if (!best.length || hits.slice(0, 2).some(function (h) { return h.item.i === best[0].item.i; })) return hits;
    var rest = hits.filter(function (h) { return h.item.i !== best[0].item.i; });
    return rest.slice(0, 1).concat(best, rest.slice(1));
  };
  function member(it, filters) {
    for (var k = 0; k < it.members.length; k++) {
      var m = it.members[k];
      if ((filters.doc.length && filters.doc.indexOf(m.doc) < 0) || (filters.era.length && filters.era.indexOf(m.era) < 0)) continue;
      return m;
    }
    return it.members[0];
  }
  function collapse(scored, filters) {
    var families = new Map();
    scored.forEach(function (h) {
      var key = h.item.family;
      if (!families.has(key)) families.set(key, []);
      families.get(key).push(h);
    });
    var out = [];
    families.forEach(function (group) {
      var shown = group.reduce(function (a, b) {
        var ra = member(a.item, filters).rank, rb = member(b.item, filters).rank;
        return rb < ra || (rb === ra && -b.raw < -a.raw) ? b : a;
      });
      out.push({score: group[0].score, item: shown.item, member: member(shown.item, filters)});
    });
    return out;
  }
  Engine.prototype.ranked = function (plan, hits) {
    var out = this.examplesToRules(plan, this.rerank(hits, plan.variants, plan));
    if (!plan.question && plan.units.some(function (u) { return u.alts.length > 1; })) out = this.withTodaysWord(plan, out);
    return collapse(out, plan.filters);
  };

  // ---- api.search ---------------------------------------------------------------------------
  Engine.prototype.query = function (query, limit) {
    var parsed = this.parse(query), c = this.c, self = this;
    var filters = parsed.filters, messages = parsed.messages.slice();
    var bad = this.unknownFilters(filters);
    if (bad) return {results: [], message: messages.concat([bad]).join(" "), total: 0};
    if (!parsed.positive.length && !parsed.ref) {
      return {results: [], message: messages.concat(["Type a rule number (1.16.10b), a term (paid ability window) or a card name."]).join(" "), total: 0};
    }
    if (parsed.ref) {
      var found = this.refHits(parsed.ref, filters, limit);
      if (found.length) return {results: found.slice(0, limit), message: messages.join(" "), total: found.length};
      if (parsed.ref.number) messages.push("No rule numbered " + parsed.ref.number + "; searched the text instead.");
    }
    var plan = this.plan(parsed, filters);
    var first = plan.question ? c.QUESTION_FIRST : c.FIRST;
    var raw = this.search(plan, first, c.ENOUGH), shown = this.ranked(plan, raw.hits), total = raw.total;
    if (limit > shown.length && raw.hits.length >= first) {
      var more = this.search(plan, c.POOL, c.ENOUGH);
      total = more.total;
      var taken = new Set();
      raw.hits.forEach(function (h) { taken.add(h.item.members[0].id); taken.add(h.item.family); });
      var rest = more.hits.filter(function (h) { return !taken.has(h.item.members[0].id) && !taken.has(h.item.family); });
      var have = new Set();
      shown.forEach(function (x) { have.add(x.item.family); have.add(x.member.id); });
      shown = shown.concat(this.ranked(plan, rest).filter(function (x) { return !have.has(x.item.family) && !have.has(x.member.id); }));
    }
    if (plan.corrected) messages.push("Also searched for \u201c" + plan.corrected + "\u201d.");
    if (!shown.length) messages.push("No matches for \u201c" + query + "\u201d.");
    return {results: shown.slice(0, limit).map(function (x) { return self.result(x.item, x.member, x.score); }),
            message: messages.join(" "), total: total};
  };
  Engine.prototype.unknownFilters = function (filters) {
    var known = {doc: new Set(), era: new Set(), kind: new Set()}, problems = [];
    this.items.forEach(function (it) {
      known.kind.add(it.kind);
      it.members.forEach(function (m) { known.doc.add(m.doc); known.era.add(m.era || "none"); });
    });
    FILTER_KEYS.forEach(function (k) {
      var missing = filters[k].filter(function (v) { return !known[k].has(v); });
      if (missing.length) problems.push("No " + k + " '" + missing.join(", ") + "' in the index.");
    });
    return problems.join(" ");
  };
  Engine.prototype.refHits = function (ref, filters, limit) {
    var self = this, shown = [], seen = new Set(), allowed = this.allowed(filters);
    function ok(m) { return !((filters.doc.length && filters.doc.indexOf(m.doc) < 0) || (filters.era.length && filters.era.indexOf(m.era) < 0)); }
    this.items.forEach(function (it) {
      if (allowed && !allowed.has(it.i)) return;
      it.members.forEach(function (m) { if (ref.id && m.id === ref.id) { shown.push([it, m]); seen.add(m.id); } });
    });
    if (ref.number) {
      var numbered = [];
      this.items.forEach(function (it) {
        if (allowed && !allowed.has(it.i)) return;
        it.members.forEach(function (m) { if (m.number === ref.number && ok(m)) numbered.push([it, m]); });
      });
      numbered.sort(function (a, b) {
        return ((a[1].doc !== ref.doc) - (b[1].doc !== ref.doc)) || a[1].rank - b[1].rank ||
          (a[1].id < b[1].id ? -1 : a[1].id > b[1].id ? 1 : 0);
      });
      numbered.forEach(function (p) { if (!seen.has(p[1].id)) { shown.push(p); seen.add(p[1].id); } });
    }
    shown = shown.slice(0, limit);
    if (ref.number && shown.length && shown.length < limit) {
      // Then the texts that cite the rule ("see 1.16.10b"), best first.
      var plan = {units: [], numbers: [ref.number], exclude: [], filters: filters, question: false,
                  apart: false, namesCard: false, variants: new Set()};
      var cites = this.search(plan, limit, limit).hits, room = limit - shown.length;
      cites.forEach(function (h) {
        var m = member(h.item, filters);
        if (room > 0 && !seen.has(m.id)) { shown.push([h.item, m]); seen.add(m.id); room--; }
      });
    }
    return shown.map(function (p, k) { return self.result(p[0], p[1], shown.length - k); });
  };
  Engine.prototype.result = function (it, m, score) {
    return {id: m.id, href: m.href, doc: m.doc, docLabel: m.label, number: m.number, title: it.title,
            kind: it.kind, snippet: it.snippet, superseded: it.superseded, score: score};
  };

  var api = {Engine: Engine, fold: fold};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  root.JBSearch = api;

  // ---- the page ------------------------------------------------------------------------------
  var MAX = 50;
  function highlighted(text, words) {
    var frag = document.createDocumentFragment();
    words = words.filter(function (w) { return w.length > 1; });
    if (!words.length) { frag.appendChild(document.createTextNode(text)); return frag; }
    var re = new RegExp("(" + words.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|") + ")", "ig");
    var pos = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > pos) frag.appendChild(document.createTextNode(text.slice(pos, m.index)));
      var mark = document.createElement("mark"); mark.textContent = m[0]; frag.appendChild(mark);
      pos = m.index + m[0].length;
      if (!m[0].length) re.lastIndex++;
    }
    frag.appendChild(document.createTextNode(text.slice(pos)));
    return frag;
  }
  function show(engine, q) {
    var status = document.getElementById("search-status"), list = document.getElementById("search-results");
    var r = engine.query(q, MAX), words = [];
    // Marked: the words searched, not the question words or stop words around them.
    engine.parse(q).keywords.forEach(function (c) {
      c.words.forEach(function (w) { if (engine.stem(w)) words.push(fold(w)); });
    });
    list.textContent = "";
    status.textContent = r.results.length
      ? r.total + " result" + (r.total === 1 ? "" : "s") + " for \u201c" + q + "\u201d" + (r.total > MAX ? " (first " + MAX + " shown)" : "")
        + (r.message ? " " + r.message : "")
      : (r.message || "No matches for \u201c" + q + "\u201d.");
    r.results.forEach(function (hit) {
      var li = document.createElement("li"); li.className = "hit";
      var a = document.createElement("a"); a.className = "hit-title"; a.href = hit.href;
      var tag = document.createElement("span"); tag.className = "doc-tag"; tag.textContent = hit.docLabel;
      a.appendChild(tag); a.appendChild(document.createTextNode(" "));
      if (hit.number) { var n = document.createElement("span"); n.className = "num"; n.textContent = hit.number; a.appendChild(n); a.appendChild(document.createTextNode(" ")); }
      a.appendChild(document.createTextNode(hit.title));
      li.appendChild(a);
      if (hit.superseded) {
        var sup = document.createElement("p"); sup.className = "message superseded";
        sup.appendChild(document.createTextNode("Superseded: the current rules word this differently \u2014 "));
        var cur = document.createElement("a"); cur.href = hit.superseded; cur.textContent = "see the current version";
        sup.appendChild(cur); sup.appendChild(document.createTextNode("."));
        li.appendChild(sup);
      }
      var p = document.createElement("p"); p.className = "snippet"; p.appendChild(highlighted(hit.snippet, words));
      li.appendChild(p); list.appendChild(li);
    });
  }
  function start() {
    var status = document.getElementById("search-status");
    var ix = root.JB_INDEX;
    if (!ix || ix.v !== 2) { status.textContent = "The search index (search-index.js) did not load."; return; }
    var engine = new Engine(ix);
    var q = (new URLSearchParams(location.search).get("q") || "").slice(0, 500).trim();
    var box = document.getElementById("q");
    if (box) box.value = q;
    if (!q) { status.textContent = "Type a rule number, a term or a card name above (" + ix.items.length + " texts indexed)."; return; }
    show(engine, q);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})(typeof window !== "undefined" ? window : this);
