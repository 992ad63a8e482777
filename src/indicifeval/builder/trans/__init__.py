"""IndicIFEval-Trans for any language: English rows -> a translation plan -> the phrase table ->
whole-prompt machine translation with protected spans -> assembled, validated rows."""
