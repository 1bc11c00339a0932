"""Texts of the demo news site (original prose written for this project)."""

from __future__ import annotations

# slug, section, lang, headline, author, date shown (varied formats), ISO date,
# encoding of the page file, tags, paragraphs
ARTICLES: list[dict] = [
    {
        "slug": "harbour-bridge-sensors",
        "section": "tech",
        "lang": "en",
        "headline": "Harbour Bridge Gets a Nervous System of Ten Thousand Sensors",
        "author": "Maya Okafor",
        "byline": "By Maya Okafor | Published March 3, 2025, 9:15 AM",
        "date": "2025-03-03",
        "tags": ["infrastructure", "sensors"],
        "paragraphs": [
            "Engineers finished wiring the old harbour bridge this week with more than ten "
            "thousand small sensors that listen for strain, vibration and rust. The devices "
            "are no bigger than a matchbox and are glued to the steel girders in places that "
            "inspectors used to reach only with ropes.",
            "Each sensor reports a reading every few seconds to a station on the shore, where "
            "software compares it with the behaviour of the bridge on calm days. When a lorry "
            "crosses, the girders flex by a fraction of a millimetre; when a bolt loosens, the "
            "pattern of that flex changes in a way a person would never notice.",
            "The city expects the system to cut the number of lane closures for inspection by "
            "half. The first month of data has already pointed the maintenance crew to two "
            "joints that needed fresh paint before winter, and to nothing more serious.",
        ],
    },
    {
        "slug": "battery-library",
        "section": "tech",
        "lang": "en",
        "headline": "Town Library Starts Lending Power Tool Batteries",
        "author": "Daniel Reyes",
        "byline": "Daniel Reyes — 2025-02-14 08:30",
        "date": "2025-02-14",
        "tags": ["community", "batteries"],
        "paragraphs": [
            "The public library on Mill Street has added an unusual shelf: rechargeable "
            "batteries for drills, saws and garden trimmers, lent out for a week at a time "
            "with a library card.",
            "Librarians say the idea came from residents who owned tools of one brand and "
            "batteries of another, and who kept buying new packs for jobs that took an "
            "afternoon. The library stocks the four most common fittings and charges them "
            "overnight behind the returns desk.",
            "In the first fortnight, ninety-one batteries went out and all but two came back "
            "on time. The two late ones were returned with a note of apology and a jar of "
            "homemade plum jam, which the staff have decided to count as interest.",
        ],
    },
    {
        "slug": "quiet-keyboards",
        "section": "tech",
        "lang": "en",
        "headline": "Why Office Keyboards Are Getting Quieter",
        "author": "Priya Natarajan",
        "byline": "Posted on 27/01/2025 by Priya Natarajan",
        "date": "2025-01-27",
        "tags": ["design", "offices"],
        "paragraphs": [
            "Open-plan offices have made the clatter of typing a surprisingly common "
            "complaint, and keyboard makers have responded with switches that are damped "
            "by tiny rubber rings and springs wound to a softer curve.",
            "Acoustic engineers measure the result in decibels, but the more useful figure, "
            "they argue, is how sharp the sound is. A dull thud at the same volume bothers "
            "colleagues far less than a crisp click, which the ear picks out from background "
            "noise with ease.",
            "Some typists miss the old feedback. Manufacturers now ship small sample boards "
            "so buyers can try the feel before ordering a full keyboard for every desk.",
        ],
    },
    {
        "slug": "night-trains-return",
        "section": "tech",
        "lang": "en",
        "headline": "Night Trains Return to the Northern Line After Twelve Years",
        "author": "Tom Ellis",
        "byline": "Tom Ellis, 5 Feb 2025",
        "date": "2025-02-05",
        "tags": ["transport", "infrastructure"],
        "paragraphs": [
            "Sleeper carriages rolled out of the central station on Friday night for the "
            "first time in twelve years, reviving a route that was cancelled when budget "
            "airlines made the trip cheaper by air.",
            "The new carriages have private cabins with a washbasin, a fold-down desk and "
            "blinds that shut out the platform lights. Tickets for the first month sold out "
            "within a day, mostly to families and to travellers who dislike flying.",
            "The operator admits the service will need public support for its first years. "
            "It is betting that travellers will pay a little more to wake up in the centre "
            "of a city instead of at an airport an hour outside it.",
        ],
    },
    {
        "slug": "urban-beekeepers",
        "section": "science",
        "lang": "en",
        "headline": "Rooftop Beekeepers Count a Record Honey Harvest",
        "author": "Laura Schmidt",
        "byline": "Laura Schmidt · September 12, 2024",
        "date": "2024-09-12",
        "tags": ["nature", "community"],
        "paragraphs": [
            "The association of rooftop beekeepers reported its largest harvest since it was "
            "founded, with forty hives on office roofs producing close to a tonne of honey.",
            "Members credit the city's decision to stop mowing the verges of ring roads "
            "before midsummer. The clover and wild marjoram that now flower there give the "
            "bees a steady supply of nectar in the weeks when gardens have gone quiet.",
            "The honey is sold at a stall outside the town hall every Saturday. Each jar is "
            "labelled with the address of the roof it came from, and regular buyers say they "
            "can taste the difference between the river district and the old town.",
        ],
    },
    {
        "slug": "lake-ice-records",
        "section": "science",
        "lang": "en",
        "headline": "School Pupils Rescue a Century of Lake Ice Records",
        "author": "Samuel Ortiz",
        "byline": "Samuel Ortiz | Updated: 2024-12-02T14:05:00Z",
        "date": "2024-12-02",
        "tags": ["climate", "education"],
        "paragraphs": [
            "A class of fourteen-year-olds has typed up a hundred years of handwritten notes "
            "kept by the ferry company about the day the lake froze and the day the ice "
            "broke each spring.",
            "The notebooks had been stored in a boathouse attic and were found during a "
            "renovation. The pupils checked each entry twice and marked the years where the "
            "ink had faded beyond reading, rather than guessing.",
            "Scientists at the regional university say the series is one of the longest of "
            "its kind in the country. It shows the lake now stays frozen about three weeks "
            "less than it did when the first entries were written.",
        ],
    },
    {
        "slug": "mushroom-leather",
        "section": "science",
        "lang": "en",
        "headline": "Workshop Grows Leather Substitute From Mushroom Roots",
        "author": "Hannah Brooks",
        "byline": "By Hannah Brooks. Published 19 November 2024",
        "date": "2024-11-19",
        "tags": ["materials", "design"],
        "paragraphs": [
            "In a converted garage on the edge of town, a small workshop is growing sheets "
            "of a tough, flexible material from the root threads of oyster mushrooms fed on "
            "sawdust.",
            "After two weeks in trays the threads knit into a mat that is pressed, dried and "
            "tanned with plant oils. The result looks like suede and can be stitched, though "
            "the makers concede it does not yet survive a winter of wet boots.",
            "The workshop sells wallets and notebook covers online and is working with a "
            "local shoemaker on a sole that could last a full year of daily wear.",
        ],
    },
    {
        "slug": "gaotie-wifi",
        "section": "guonei",
        "lang": "zh",
        "encoding": "gbk",
        "headline": "城际高铁全线开通无线网络，乘客可免费上网",
        "author": "李明",
        "byline": "2025年3月1日 10:20　来源：本报　作者：李明",
        "date": "2025-03-01",
        "tags": ["交通", "科技"],
        "paragraphs": [
            "本周起，连接两座省会城市的城际高铁全线开通无线网络，乘客在车厢内连接指定网络后，"
            "即可免费浏览网页和收发消息。",
            "铁路部门介绍，列车在隧道和山区路段行驶时，信号会短暂减弱。为此，沿线新建了一批"
            "基站，并在车顶加装了天线，保证大部分路段的网速可以满足视频通话的需要。",
            "不少经常往返两地的上班族表示，过去在车上只能看书或者睡觉，现在可以处理邮件，"
            "一个多小时的车程变得更有效率了。",
        ],
    },
    {
        "slug": "laojie-xiushan",
        "section": "guonei",
        "lang": "zh",
        "encoding": "gbk",
        "headline": "百年老街完成修缮，传统店铺陆续回归",
        "author": "王芳",
        "byline": "发布时间：2025-01-08 15:42　编辑：王芳",
        "date": "2025-01-08",
        "tags": ["城市", "文化"],
        "paragraphs": [
            "经过一年多的修缮，城南有百年历史的青石老街近日重新开放。修缮工程保留了原有的"
            "木结构门面，只更换了已经腐朽的梁柱和屋瓦。",
            "街道办事处负责人说，修缮期间暂时迁出的老字号店铺，目前已有十二家搬回原址，"
            "其中包括一家经营了三代的酱园和一家手工制作竹器的小店。",
            "周末，老街上游人明显增多。一些居民也提出，希望管理部门控制商铺数量，让老街"
            "保留原来的生活气息，而不是变成只卖纪念品的商业街。",
        ],
    },
    {
        "slug": "shequ-shitang",
        "section": "guonei",
        "lang": "zh",
        "headline": "社区食堂开进老旧小区，老人吃饭不再犯愁",
        "author": "陈静",
        "byline": "作者：陈静　2024-11-30",
        "date": "2024-11-30",
        "tags": ["民生", "城市"],
        "paragraphs": [
            "在建成三十多年的东湖小区，一间由闲置车棚改造的社区食堂上个月开始营业，每天"
            "中午为附近的老人提供两荤一素的套餐。",
            "食堂由街道出资改造，交给一家餐饮企业运营。七十岁以上的老人凭卡就餐可以享受"
            "优惠，行动不便的老人还可以请志愿者送餐上门。",
            "负责人表示，菜单会根据老人的反馈每周调整，少油少盐是基本要求。不少年轻住户"
            "下班晚了，也会来这里打包一份晚饭。",
        ],
    },
    {
        "slug": "xiaoxue-tianjing",
        "section": "guonei",
        "lang": "zh",
        "meta_charset": "gb2312",
        "headline": "小学开设田径课后班，孩子们爱上了跑步",
        "author": "赵磊",
        "byline": "【2024年10月16日】　记者 赵磊",
        "date": "2024-10-16",
        "tags": ["城市", "民生"],
        "paragraphs": [
            "放学铃声响起后，实验小学的操场并没有安静下来。学校今年开设的田径课后班吸引了"
            "两百多名学生报名，每周三次，由体育老师和退役运动员一起带练。",
            "教练说，课后班并不追求成绩，而是让孩子们学会正确的起跑、摆臂和呼吸方法，"
            "练习之前一定先做十分钟的热身活动。",
            "家长们发现，孩子们回家后吃饭更香，睡得也更早了。学校计划明年春天举办一次"
            "全校运动会，让每个班级都有机会上场。",
        ],
    },
    {
        "slug": "gushu-baohu",
        "section": "guonei",
        "lang": "zh",
        "encoding": "gbk",
        "headline": "全市古树名木完成建档，每棵树都有了身份证",
        "author": "周婷",
        "byline": "2024/09/05 09:00 | 周婷",
        "date": "2024-09-05",
        "tags": ["自然", "城市"],
        "paragraphs": [
            "园林部门日前完成了全市古树名木的普查和建档工作，共登记树龄超过一百年的古树"
            "八百余棵，每棵树都挂上了带有二维码的标牌。",
            "市民用手机扫描标牌，就能看到这棵树的品种、树龄、生长状况和养护记录。工作人员"
            "还为一些树干空洞的老树做了支撑和填充。",
            "园林专家提醒，古树周边不宜硬化地面，也不要在树下堆放杂物，以免影响根系呼吸。",
        ],
    },
]
