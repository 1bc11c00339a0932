"""Products of the demo shop (original texts written for this project)."""

from __future__ import annotations

# price_text is what the page shows; price/currency the expected normalised
# values. jsonld: whether the page embeds a schema.org Product.
PRODUCTS: list[dict] = [
    {
        "slug": "enamel-kettle", "category": "kitchen", "lang": "en",
        "name": "Speckled Enamel Stovetop Kettle 1.6 L",
        "price_text": "$39.90", "price": "39.90", "currency": "USD",
        "availability": "InStock", "sku": "KT-1602", "brand": "Hearthwell", "jsonld": True,
        "specs": [("Capacity", "1.6 litres"), ("Material", "Enamelled steel"),
                  ("Hob", "Gas, electric, induction"), ("Weight", "1.1 kg")],
        "description": "A kettle with a speckled enamel finish and a wooden handle that stays "
                       "cool. The wide base heats quickly on induction hobs and the whistle "
                       "can be flipped off for early mornings.",
    },
    {
        "slug": "cast-iron-skillet", "category": "kitchen", "lang": "en",
        "name": "Pre-Seasoned Cast Iron Skillet 26 cm",
        "price_text": "€54,95", "price": "54.95", "currency": "EUR",
        "availability": "InStock", "sku": "CI-2610", "brand": "Ferrona", "jsonld": False,
        "specs": [("Diameter", "26 cm"), ("Material", "Cast iron"),
                  ("Oven safe", "Up to 260 °C"), ("Weight", "2.4 kg")],
        "description": "Seasoned with vegetable oil at the foundry, this skillet is ready for "
                       "its first steak out of the box. Two pouring lips and a helper handle "
                       "make it easier to lift when full.",
    },
    {
        "slug": "bamboo-board", "category": "kitchen", "lang": "en",
        "name": "End-Grain Bamboo Chopping Board",
        "price_text": "£24.50", "price": "24.50", "currency": "GBP",
        "availability": "OutOfStock", "sku": "BB-4530", "brand": "Kinfolk Table", "jsonld": True,
        "specs": [("Size", "45 x 30 cm"), ("Thickness", "3 cm"), ("Material", "Bamboo"),
                  ("Care", "Hand wash, oil monthly")],
        "description": "End-grain blocks are kinder to knife edges than flat boards. A juice "
                       "groove runs round the top face and rubber feet stop the board from "
                       "sliding on wet worktops.",
    },
    {
        "slug": "pour-over-set", "category": "kitchen", "lang": "en",
        "name": "Glass Pour-Over Coffee Set",
        "price_text": "US$ 32.00", "price": "32.00", "currency": "USD",
        "availability": "InStock", "sku": "PO-0800", "brand": "Morning Field", "jsonld": False,
        "specs": [("Capacity", "800 ml"), ("Filter", "Stainless mesh, reusable"),
                  ("Material", "Borosilicate glass")],
        "description": "A heat-resistant glass carafe with a fine stainless filter, so no paper "
                       "is needed. The cork collar doubles as a grip and lets you pour "
                       "without a cloth.",
    },
    {
        "slug": "trail-tent", "category": "outdoor", "lang": "en",
        "name": "Two-Person Lightweight Trail Tent",
        "price_text": "€189.00", "price": "189.00", "currency": "EUR",
        "availability": "InStock", "sku": "TT-2P-19", "brand": "Ridgeline", "jsonld": True,
        "specs": [("Sleeps", "2"), ("Packed weight", "1.9 kg"), ("Poles", "Aluminium"),
                  ("Waterproof rating", "3000 mm")],
        "description": "A freestanding tent that pitches in about four minutes with one "
                       "hubbed pole set. Two doors and two porches mean nobody climbs over "
                       "anybody at night.",
    },
    {
        "slug": "headlamp", "category": "outdoor", "lang": "en",
        "name": "Rechargeable 400 Lumen Headlamp",
        "price_text": "£29.99", "price": "29.99", "currency": "GBP",
        "availability": "InStock", "sku": "HL-400R", "brand": "Ridgeline", "jsonld": False,
        "specs": [("Output", "400 lumens"), ("Battery", "1500 mAh, USB-C"),
                  ("Run time", "Up to 40 h on low"), ("Weight", "78 g")],
        "description": "A light headlamp with a red night mode that keeps your eyes adjusted "
                       "to the dark. The battery charges over USB-C and shows its level on "
                       "four small lights.",
    },
    {
        "slug": "insulated-bottle", "category": "outdoor", "lang": "en",
        "name": "Insulated Steel Water Bottle 750 ml",
        "price_text": "$27.50", "price": "27.50", "currency": "USD",
        "availability": "OutOfStock", "sku": "WB-750S", "brand": "Hearthwell", "jsonld": True,
        "specs": [("Capacity", "750 ml"), ("Keeps cold", "24 hours"),
                  ("Keeps hot", "12 hours"), ("Material", "18/8 stainless steel")],
        "description": "Double walls with a vacuum between them keep drinks cold through a "
                       "summer hike. The loop cap clips onto a pack and the mouth is wide "
                       "enough for ice cubes.",
    },
    {
        "slug": "folding-stool", "category": "outdoor", "lang": "en",
        "name": "Folding Camp Stool With Carry Strap",
        "price_text": "€19.90", "price": "19.90", "currency": "EUR",
        "availability": "InStock", "sku": "FS-0190", "brand": "Ridgeline", "jsonld": False,
        "specs": [("Seat height", "43 cm"), ("Max load", "110 kg"), ("Weight", "0.9 kg")],
        "description": "Three legs and a canvas seat fold into a bundle the size of a "
                       "rolled umbrella. Handy for fishing, festivals or waiting at the "
                       "finish line of a long race.",
    },
    {
        "slug": "zisha-teapot", "category": "chaju", "lang": "zh",
        "name": "宜兴紫砂西施壶 220毫升",
        "price_text": "¥368.00", "price": "368.00", "currency": "CNY",
        "availability": "InStock", "sku": "ZS-220", "brand": "陶然居", "jsonld": True,
        "specs": [("容量", "220毫升"), ("材质", "紫砂原矿"), ("产地", "江苏宜兴"),
                  ("工艺", "全手工")],
        "description": "壶身圆润，出水流畅，适合冲泡乌龙茶和普洱茶。每把壶都经过手工打磨，"
                       "使用前用开水烫洗即可。",
    },
    {
        "slug": "baici-gaiwan", "category": "chaju", "lang": "zh", "encoding": "gbk",
        "name": "德化白瓷盖碗 150毫升",
        "price_text": "88元", "price": "88", "currency": "CNY",
        "availability": "InStock", "sku": "DH-150", "brand": "白瓷坊", "jsonld": False,
        "specs": [("容量", "150毫升"), ("材质", "高白瓷"), ("产地", "福建德化")],
        "description": "瓷质细腻洁白，透光性好，便于观察茶汤颜色。碗沿外翻，注水和出汤时不易烫手。",
    },
    {
        "slug": "zhuzhi-chapan", "category": "chaju", "lang": "zh",
        "name": "楠竹储水茶盘 大号",
        "price_text": "¥ 199", "price": "199", "currency": "CNY",
        "availability": "OutOfStock", "sku": "NZ-L60", "brand": "竹里", "jsonld": False,
        "specs": [("尺寸", "60 × 40 厘米"), ("材质", "楠竹"), ("储水量", "约2升")],
        "description": "整块楠竹拼接，表面经过防水处理。底部设有储水槽，一次泡茶的废水不用中途倒掉。",
    },
    {
        "slug": "tongzhi-chaye-guan", "category": "chaju", "lang": "zh", "encoding": "gbk",
        "name": "手工锡制茶叶罐 二两装",
        "price_text": "价格：256.00元", "price": "256.00", "currency": "CNY",
        "availability": "InStock", "sku": "XG-100", "brand": "锡韵", "jsonld": True,
        "specs": [("容量", "二两（约100克茶叶）"), ("材质", "锡"), ("密封", "双层盖")],
        "description": "锡罐密封性好，能隔绝光线和潮气，适合存放绿茶和白茶。罐身手工锤纹，"
                       "越用越有光泽。",
    },
]
