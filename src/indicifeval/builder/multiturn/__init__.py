"""``build multiturn``: three-turn conversations made from a language's Trans rows, as Multi-IF made its
own from IFEval's."""
