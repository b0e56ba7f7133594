"""The letters of Chinese, Japanese and Korean, for the rooms that read them apart from
Latin text: the lexical scorer reads a run of them as pairs of letters
(toolcat.search.text), and the language gate counts each as several Latin letters
(toolcat.languages). One module without imports, so neither room pays for the other's."""

# kana, CJK ideographs (extension A, the unified block, compatibility) and Hangul syllables
LETTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# Hangul's jamo, the letters its syllables are made of: a request may be typed in them
JAMO = "\u1100-\u11ff\u3130-\u318f"
