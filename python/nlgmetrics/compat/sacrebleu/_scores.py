"""sacrebleu 2.6's result and signature objects: same attributes, same printed text."""

from __future__ import annotations

import json
from typing import Any

SACREBLEU_VERSION = "2.6.0"
"""The sacrebleu release whose numbers, signatures and output this module reproduces."""


class Score:
    """A score as sacrebleu prints it (``format`` is sacrebleu's, character for character)."""

    def __init__(self, name: str, score: float):
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        d: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        sc = f"{self.score:.{width}f}"
        if self._mean > 0:
            mean, var = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            conf = f"μ = {mean} ± {var}"
            sc += f" ({conf})"
            if is_json:
                d.update(confidence_mean=float(mean), confidence_var=float(var), confidence=conf)
        full = f"{self.name}|{signature}" if signature else self.name
        full = f"{full} = {sc}"
        if self._verbose:
            full += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full

    def estimate_ci(self, scores: list["Score"]) -> None:
        """Mean and 95% half-width of bootstrap scores, as sacrebleu estimates them."""
        raw = sorted(x.score for x in scores)
        self._set_ci(raw)

    def _set_ci(self, raw: list[float]) -> None:
        lower_idx = len(raw) // 40
        upper_idx = len(raw) - lower_idx - 1
        self._ci = 0.5 * (raw[upper_idx] - raw[lower_idx])
        import statistics  # on use: only the bootstrap needs it

        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    def __init__(self, score: float, counts: list, totals: list, precisions: list[float], bp: float, sys_len: int, ref_len: int):
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} hyp_len = {sys_len:d} ref_len = {ref_len:d})"
        )


class CHRFScore(Score):
    def __init__(self, score: float, char_order: int, word_order: int, beta: int):
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class TERScore(Score):
    def __init__(self, score: float, num_edits: float, ref_length: float):
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


_GLOBAL_ABBR = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S", "origlang": "o", "bs": "bs", "ar": "ar", "seed": "rs"}


class Signature:
    """sacrebleu's reproducibility signature, built from a metric's attributes."""

    def __init__(self, args: dict):
        self._abbr = dict(_GLOBAL_ABBR)
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = "var" if args["num_refs"] == -1 else args["num_refs"]
        self.info: dict[str, Any] = {
            "version": SACREBLEU_VERSION,
            "nrefs": num_refs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": args.get("test_set"),
            "lang": args.get("langpair"),
            "origlang": args.get("origlang"),
            "subset": args.get("subset"),
        }

    def format(self, short: bool = False) -> str:
        pairs = []
        keys = [k for k in self.info if k != "version"] + ["version"]
        for name in keys:
            value = self.info[name]
            if value is not None:
                if isinstance(value, bool):
                    value = "yes" if value else "no"
                pairs.append(f"{self._abbr[name] if short else name}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


class BLEUSignature(Signature):
    def __init__(self, args: dict):
        super().__init__(args)
        self._abbr.update(case="c", eff="e", tok="tok", smooth="s")
        smooth = args["smooth_method"]
        default = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}[smooth]
        if default is not None:
            value = args["smooth_value"] if args["smooth_value"] is not None else default
            smooth += f"[{value:.2f}]"
        self.info.update(
            case="lc" if args["lowercase"] else "mixed",
            eff="yes" if args["effective_order"] else "no",
            tok=args["tokenizer_signature"],
            smooth=smooth,
        )


class CHRFSignature(Signature):
    def __init__(self, args: dict):
        super().__init__(args)
        self._abbr.update(case="c", eff="e", nc="nc", nw="nw", space="s")
        self.info.update(
            case="lc" if args["lowercase"] else "mixed",
            eff="yes" if not args["eps_smoothing"] else "no",
            nc=args["char_order"],
            nw=args["word_order"],
            space="yes" if args["whitespace"] else "no",
        )


class TERSignature(Signature):
    def __init__(self, args: dict):
        super().__init__(args)
        self._abbr.update(case="c", tok="t", norm="nr", punct="pn", asian="as")
        self.info.update(
            case="mixed" if args["case_sensitive"] else "lc",
            tok=args["tokenizer_signature"],
            norm=args["normalized"],
            punct=not args["no_punct"],
            asian=args["asian_support"],
        )
