/// The default theme's text, compiled in (the same as `Themes/default.theme`).
enum BuiltInThemes {
    static let dark = """
        header = 231 on 24 bold
        status = 252 on 236
        selection = 16 on 117
        folder = 75 bold
        file = default
        link = 80
        image = 71
        video = 133
        audio = 172
        document = 67
        text = default
        archive = 137
        hidden = 244
        size = 244
        date = 243
        border = 238
        title = default bold
        message = 172 bold
        error = 203 bold
        filter = 16 on 222
        tile = default
        help = 252 on 235
        """
}
